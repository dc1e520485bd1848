/// A card checkout's 3-D Secure challenge in the sandbox: issued `pending` when a checkout needs it,
/// answered once on its page, `passed` or `failed`; the next checkout uses the answer.
public enum ThreeDSecureStatus: String, Sendable, Hashable, CaseIterable {
    /// Issued; the customer has not answered it.
    case pending
    /// The customer completed it: the next checkout succeeds.
    case passed
    /// The customer failed it: the next checkout is declined.
    case failed

    /// The status the challenge page's `outcome` (`complete` or `fail`) leads to; `nil` for any other.
    public init?(pageOutcome: String) {
        switch pageOutcome {
        case "complete": self = .passed
        case "fail": self = .failed
        default: return nil
        }
    }

    /// Whether the challenge still waits for its one answer.
    public var isAnswerable: Bool { self == .pending }
}

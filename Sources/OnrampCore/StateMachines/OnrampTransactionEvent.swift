/// What a Coinbase onramp purchase emits, named after CDP's `onramp.transaction.*` webhook event types:
/// an App2App transaction and a Headless Onramp order announce their changes with the same four types
/// (each with its own statuses and failure reasons).
public enum OnrampTransactionEvent<Status: Sendable & Hashable, FailureReason: Sendable & Hashable>: Sendable,
    Hashable
{
    /// `onramp.transaction.created`.
    case created
    /// `onramp.transaction.updated` with the new status.
    case updated(Status)
    /// `onramp.transaction.success`.
    case success
    /// `onramp.transaction.failed`.
    case failed(FailureReason)

    /// The webhook event type.
    public var eventType: String {
        switch self {
        case .created: return "onramp.transaction.created"
        case .updated: return "onramp.transaction.updated"
        case .success: return "onramp.transaction.success"
        case .failed: return "onramp.transaction.failed"
        }
    }
}

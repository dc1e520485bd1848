import Foundation

/// The outcome of a 3-D Secure challenge, as the user left it.
public enum ThreeDSecureOutcome: Sendable, Equatable {
    /// The user completed the bank's challenge (it may still have failed; the next checkout tells).
    case completed
    /// The user closed the challenge.
    case canceled
}

/// Presents a card issuer's 3-D Secure challenge page at `url`.
@MainActor public protocol ThreeDSecurePresenter {
    /// Presents the page and returns when the user leaves it.
    func presentChallenge(url: URL, from context: any STPAuthenticationContext) async throws -> ThreeDSecureOutcome
}

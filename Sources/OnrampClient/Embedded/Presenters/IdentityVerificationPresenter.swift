import Foundation

/// Presents the hosted identity verification (document and selfie) at `url`.
@MainActor public protocol IdentityVerificationPresenter {
    /// Presents the flow and returns when the user finishes or leaves it.
    func presentIdentityVerification(url: URL, ephemeralKey: String, from viewController: PresentingViewController)
        async throws -> VerificationResult
}

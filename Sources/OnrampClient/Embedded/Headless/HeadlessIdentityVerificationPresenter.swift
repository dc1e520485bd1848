import Foundation

/// Picks an outcome on the sandbox server's test-mode identity page over HTTP (default `verified`);
/// `canceled` leaves without submitting.
@MainActor public struct HeadlessIdentityVerificationPresenter: IdentityVerificationPresenter {
    /// The outcome picked: `verified`, `rejected`, `pending` or `canceled`.
    public let outcome: String
    private let transport: any HTTPTransport

    /// Creates the presenter.
    public init(outcome: String = "verified", transport: any HTTPTransport = URLSessionTransport()) {
        self.outcome = outcome
        self.transport = transport
    }

    /// Submits ``outcome`` on the page.
    public func presentIdentityVerification(
        url: URL, ephemeralKey: String, from viewController: PresentingViewController
    ) async throws -> VerificationResult {
        try await HostedTestPage.submit(url, outcome: outcome, transport: transport)
        return outcome == "canceled" ? .canceled : .completed
    }
}

import Foundation

/// Answers the sandbox server's test-mode 3-D Secure page over HTTP: `complete` (default) or `fail`;
/// with `cancel` it closes the page without answering.
@MainActor public struct HeadlessThreeDSecurePresenter: ThreeDSecurePresenter {
    /// What the test user does.
    public enum Behaviour: String, Sendable {
        /// Complete authentication.
        case complete
        /// Fail authentication.
        case fail
        /// Close the page.
        case cancel
    }

    /// The behaviour.
    public let behaviour: Behaviour
    private let transport: any HTTPTransport

    /// Creates the presenter.
    public init(behaviour: Behaviour = .complete, transport: any HTTPTransport = URLSessionTransport()) {
        self.behaviour = behaviour
        self.transport = transport
    }

    /// Answers the page per ``behaviour``.
    public func presentChallenge(url: URL, from context: any STPAuthenticationContext) async throws
        -> ThreeDSecureOutcome
    {
        guard behaviour != .cancel else { return .canceled }
        try await HostedTestPage.submit(url, outcome: behaviour.rawValue, transport: transport)
        return .completed
    }
}

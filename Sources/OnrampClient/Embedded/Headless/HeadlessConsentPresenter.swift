/// Enters a fixed code (sandbox `000000`) and a fixed consent answer; ``Behaviour/cancel`` closes the screen instead.
@MainActor public struct HeadlessConsentPresenter: LinkConsentPresenter {
    /// What the test user does.
    public enum Behaviour: Sendable {
        /// Enter the code and consent.
        case approve
        /// Enter the code and decline.
        case deny
        /// Close the screen.
        case cancel
    }

    /// The code entered.
    public let code: String
    /// The answer.
    public let behaviour: Behaviour

    /// Creates the presenter.
    public init(code: String = "000000", behaviour: Behaviour = .approve) {
        self.code = code
        self.behaviour = behaviour
    }

    /// Answers per ``behaviour``.
    public func requestConsent(email: String?, attempt: Int, from viewController: PresentingViewController) async
        -> LinkConsentResponse
    {
        switch behaviour {
        case .approve: .approve(code: code)
        case .deny: .deny(code: code)
        case .cancel: .cancel
        }
    }
}

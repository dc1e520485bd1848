/// The user's answer on the Link one-time-code and consent screen.
public enum LinkConsentResponse: Sendable, Equatable {
    /// The code, and consent to share with the partner.
    case approve(code: String)
    /// The code, but the user declines to share.
    case deny(code: String)
    /// The user closed the screen.
    case cancel
}

/// Shows the one-time code entry and consent screen of ``CryptoOnrampCoordinator/authorize(linkAuthIntentId:from:)``.
@MainActor public protocol LinkConsentPresenter {
    /// Asks for the SMS code and consent; `attempt` counts from 1 (a retry follows a wrong code).
    func requestConsent(email: String?, attempt: Int, from viewController: PresentingViewController) async
        -> LinkConsentResponse
}

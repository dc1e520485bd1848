import Foundation
import Synchronization

/// The Embedded Components onramp on the client, with the call shapes of Stripe's
/// `CryptoOnrampCoordinator`: Link sign-in (``hasLinkAccount(with:)``, ``registerLinkUser(email:fullName:phone:country:)``,
/// ``authorize(linkAuthIntentId:from:)``, ``authenticateUserWithToken(_:)``), KYC (``attachKYCInfo(info:)``,
/// ``verifyKYCInfo(updatedAddress:from:)``, ``verifyIdentity(from:)``), payment
/// (``registerWalletAddress(walletAddress:network:)``, ``collectPaymentMethod(type:from:)``,
/// ``createCryptoPaymentToken()``) and ``performCheckout(onrampSessionId:authenticationContext:clientSecretProvider:)``.
///
/// Only one coordinator is active at a time: creating one makes earlier ones throw
/// ``CryptoOnrampError/Code/coordinatorInactive``. UI steps go through ``CryptoOnrampPresenters``.
@MainActor public final class CryptoOnrampCoordinator {
    /// The look of SDK-provided UI.
    public let appearance: LinkAppearance
    /// The signed-in user's crypto customer id (`crc_…`), once known.
    public internal(set) var customerId: String?
    /// After a consented ``authorize(linkAuthIntentId:from:)`` with the `auth.persist_login:read` scope: the
    /// token to store for Seamless Sign-In (your backend exchanges it for a `link_auth_token_client_secret`).
    public internal(set) var linkAuthToken: String?
    /// The payment method the next ``createCryptoPaymentToken()`` uses (`pm_…`).
    public internal(set) var selectedPaymentMethodId: String?

    let api: CryptoOnrampAPI
    let presenters: CryptoOnrampPresenters
    var consumerSessionSecret: String?
    var email: String?
    private let generation: UInt64

    private static let activeGeneration = Mutex<UInt64>(0)

    private init(
        appearance: LinkAppearance, api: CryptoOnrampAPI, presenters: CryptoOnrampPresenters, generation: UInt64
    ) {
        self.appearance = appearance
        self.api = api
        self.presenters = presenters
        self.generation = generation
    }

    /// Creates the coordinator with `STPAPIClient.shared`'s publishable key (or `apiClient`'s). The presenters
    /// default to ``CryptoOnrampPresenters/headless``; apps pass their own UI.
    public static func create(
        appearance: LinkAppearance = LinkAppearance(), apiClient: STPAPIClient = .shared,
        presenters: CryptoOnrampPresenters = .headless, transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> CryptoOnrampCoordinator {
        guard let key = apiClient.publishableKey, key.hasPrefix("pk_") else {
            throw CryptoOnrampError(
                .notConfigured, developer: "Set STPAPIClient.shared.publishableKey to a pk_… key first.")
        }
        let generation = activeGeneration.withLock { value in
            value += 1
            return value
        }
        return CryptoOnrampCoordinator(
            appearance: appearance,
            api: CryptoOnrampAPI(baseURL: apiClient.apiBaseURL, publishableKey: key, transport: transport),
            presenters: presenters, generation: generation)
    }

    /// Throws when a newer coordinator took over.
    func ensureActive() throws {
        guard Self.activeGeneration.withLock({ $0 }) == generation else {
            throw CryptoOnrampError(
                .coordinatorInactive, developer: "A newer CryptoOnrampCoordinator was created; use that one.")
        }
    }

    /// The signed-in consumer session's credential field.
    func credentials() throws -> (String, String) {
        guard let consumerSessionSecret else {
            throw CryptoOnrampError(
                .notAuthenticated, developer: "Call authorize(linkAuthIntentId:from:) or authenticateUserWithToken(_:)."
            )
        }
        return ("credentials[consumer_session_client_secret]", consumerSessionSecret)
    }
}

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
    /// The payment method the next ``createCryptoPaymentToken()`` uses (`pm_…`).
    public internal(set) var selectedPaymentMethodId: String?

    let api: CryptoOnrampAPI
    let presenters: CryptoOnrampPresenters
    /// The elements session's id, which every Link lookup names.
    let elementsSessionId: String
    var consumerSessionSecret: String?
    /// The publishable key Link answered with for the consumer's own calls.
    var consumerPublishableKey: String?
    var email: String?
    private let generation: UInt64

    private static let activeGeneration = Mutex<UInt64>(0)

    private init(
        appearance: LinkAppearance, api: CryptoOnrampAPI, presenters: CryptoOnrampPresenters,
        elementsSessionId: String, generation: UInt64
    ) {
        self.appearance = appearance
        self.api = api
        self.presenters = presenters
        self.elementsSessionId = elementsSessionId
        self.generation = generation
    }

    /// Creates the coordinator with `STPAPIClient.shared`'s publishable key (or `apiClient`'s), loading the
    /// deferred-intent elements session first as the SDK does (`GET elements/sessions`, with the 2026 SDK's
    /// mobile-session contract, ``MobileSessionContractCheck``); it fails with
    /// ``CryptoOnrampError/Code/missingAppAttestation`` when that session does not enable Link's attested
    /// mobile endpoints. The presenters default to ``CryptoOnrampPresenters/headless``; apps pass their own UI.
    public static func create(
        appearance: LinkAppearance = LinkAppearance(), apiClient: STPAPIClient = .shared,
        presenters: CryptoOnrampPresenters = .headless, transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> CryptoOnrampCoordinator {
        guard let key = apiClient.publishableKey, key.hasPrefix("pk_") else {
            throw CryptoOnrampError(
                .notConfigured, developer: "Set STPAPIClient.shared.publishableKey to a pk_… key first.")
        }
        let api = CryptoOnrampAPI(baseURL: apiClient.apiBaseURL, publishableKey: key, transport: transport)
        // The 2026 SDK's mobile-session contract: sent with the request, checked in the answer.
        let (session, headers) = try await api.getAnswer(
            "/v1/elements/sessions",
            [
                ("type", "deferred_intent"), ("key", key), ("deferred_intent[mode]", "setup"),
                ("deferred_intent[setup_future_usage]", "off_session"), ("locale", "en-US"),
                ("mobile_app_id", Bundle.main.bundleIdentifier ?? "com.example.test"),
            ], headers: [MobileSessionContractCheck.headerName: MobileSessionContractCheck.requestHeader])
        do {
            try MobileSessionContractCheck.validate(
                header: headers[MobileSessionContractCheck.headerName.lowercased()], body: session)
        } catch {
            throw CryptoOnrampError(
                .unexpectedResponse, developer: "The elements session fails its mobile contract: \(error.rawValue).")
        }
        guard let sessionId = session.string("session_id"),
            session.any("payment_method_preference.ordered_payment_method_types") is [Any]
        else { throw CryptoOnrampError(.unexpectedResponse, developer: "The elements session is incomplete.") }
        // `deviceCanUseNativeLink` (StripeCore) refuses native Link without the attestation endpoints.
        guard session.bool("link_settings.link_mobile_use_attestation_endpoints") == true else {
            throw CryptoOnrampError(
                .missingAppAttestation, developer: "The elements session does not enable Link's mobile endpoints.")
        }
        let generation = activeGeneration.withLock { value in
            value += 1
            return value
        }
        return CryptoOnrampCoordinator(
            appearance: appearance, api: api, presenters: presenters, elementsSessionId: sessionId,
            generation: generation)
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

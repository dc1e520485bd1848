import Foundation
import OnrampClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Embedded Components half of the partner backend (secret key, OAuth client): LinkAuthIntents, token
/// retrieval and refresh (kept here, never sent to the app), Seamless Sign-In secrets, onramp session creation
/// and the checkout the SDK's `clientSecretProvider` calls, and the webhook endpoint registration.
public actor EmbeddedPartnerBackend {
    /// A user's OAuth tokens.
    public struct Tokens: Sendable, Equatable {
        /// The access token (`liwltoken_…`), sent as `Stripe-OAuth-Token`.
        public let accessToken: String
        /// The refresh token (`liwlrefresh_…`); rotated on refresh.
        public let refreshToken: String?
        /// The Seamless Sign-In token (`lat_…`) that came with the tokens under `auth.persist_login:read`.
        public let linkAuthToken: String?
    }

    /// A created onramp session.
    public struct Session: Sendable, Equatable {
        /// The id (`cos_…`).
        public let id: String
        /// The status.
        public let status: String
        /// The quoted crypto amount.
        public let destinationAmount: String?
    }

    /// The onramp server (`https://api.stripe.com` or a sandbox).
    public let serverURL: URL
    private let secretKey: String
    private let oauthClientId: String
    private let oauthClientSecret: String
    private let transport: any HTTPTransport
    private let receiver: PartnerWebhookReceiver?
    private var tokens: [String: Tokens] = [:]

    /// Creates the backend; `receiver` learns which user each created session belongs to.
    public init(
        serverURL: URL, secretKey: String, oauthClientId: String, oauthClientSecret: String,
        receiver: PartnerWebhookReceiver? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.serverURL = serverURL
        self.secretKey = secretKey
        self.oauthClientId = oauthClientId
        self.oauthClientSecret = oauthClientSecret
        self.receiver = receiver
        self.transport = transport
    }

    /// The scopes requested: KYC status, ramp, and persistent login for Seamless Sign-In.
    public static let scopes = "kyc.status:read,crypto:ramp,auth.persist_login:read"

    /// Creates a LinkAuthIntent for `email`; returns its id (`lai_…`) for the app's `authorize` call.
    public func createAuthIntent(email: String, scopes: String = EmbeddedPartnerBackend.scopes) async throws -> String {
        let intent = try await post(
            "/v1/link_auth_intent", [("email", email), ("oauth_client_id", oauthClientId), ("oauth_scopes", scopes)])
        return try require(intent["id"] as? String, "link_auth_intent id")
    }

    /// After consent: retrieves and keeps the user's OAuth tokens.
    @discardableResult
    public func retrieveTokens(linkAuthIntentId: String, userRef: String) async throws -> Tokens {
        let answer = try await post("/v1/link_auth_intent/\(linkAuthIntentId)/tokens", [])
        let refresh = (answer["refresh"] as? [String: Any])?["refresh_token"] as? String
        let stored = Tokens(
            accessToken: try require(answer["access_token"] as? String, "access_token"), refreshToken: refresh,
            linkAuthToken: answer["link_auth_token"] as? String)
        tokens[userRef] = stored
        return stored
    }

    /// Exchanges the refresh token for a new access token (the refresh token rotates).
    @discardableResult
    public func refreshAccessToken(userRef: String) async throws -> Tokens {
        guard let refreshToken = tokens[userRef]?.refreshToken else {
            throw PartnerBackendError(status: 0, message: "No refresh token for \(userRef).")
        }
        let answer = try await post(
            "/auth/token",
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", oauthClientId),
                ("client_secret", oauthClientSecret),
            ])
        let stored = Tokens(
            accessToken: try require(answer["access_token"] as? String, "access_token"),
            refreshToken: answer["refresh_token"] as? String ?? refreshToken,
            linkAuthToken: tokens[userRef]?.linkAuthToken)
        tokens[userRef] = stored
        return stored
    }

    /// The user's tokens, if retrieved.
    public func tokens(for userRef: String) -> Tokens? { tokens[userRef] }

    /// Seamless Sign-In: exchanges the user's stored link auth token for a short-lived client secret the app
    /// passes to `authenticateUserWithToken`.
    public func createLinkAuthTokenClientSecret(userRef: String) async throws -> String {
        guard let linkAuthToken = tokens[userRef]?.linkAuthToken else {
            throw PartnerBackendError(status: 0, message: "No Seamless Sign-In token for \(userRef).")
        }
        let answer = try await post("/v1/link_auth_tokens/client_secret", [("link_auth_token", linkAuthToken)])
        return try require(answer["link_auth_token_client_secret"] as? String, "link_auth_token_client_secret")
    }

    /// The verification status of a KYC tier (`l0`, `l1`, `l2`) of the user's crypto customer.
    public func tierStatus(customerId: String, userRef: String, tier: String) async throws -> String? {
        let customer = try await get("/v1/crypto/customers/\(customerId)", userRef: userRef)
        let tiers = customer["kyc_tiers"] as? [[String: Any]] ?? []
        return tiers.first { $0["tier"] as? String == tier }?["verification_status"] as? String
    }

    /// Polls the customer until `tier` is no longer pending (phone and KYC checks are asynchronous).
    public func waitForTier(
        customerId: String, userRef: String, tier: String = "l1", timeout: Duration = .seconds(15)
    ) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        var status = try await tierStatus(customerId: customerId, userRef: userRef, tier: tier)
        while status != "verified" && status != "rejected" && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            status = try await tierStatus(customerId: customerId, userRef: userRef, tier: tier)
        }
        return status
    }

    /// Creates a headless onramp session paying `sourceAmount` `sourceCurrency` for `destinationCurrency` on
    /// `network` to `walletAddress`, and tells the webhook receiver whose it is.
    public func createOnrampSession(
        userRef: String, customerId: String, paymentToken: String, sourceAmount: String, sourceCurrency: String = "usd",
        destinationCurrency: String = "usdc", network: String, walletAddress: String,
        customerIPAddress: String = "203.0.113.7"
    ) async throws -> Session {
        let answer = try await post(
            "/v1/crypto/onramp_sessions",
            [
                ("ui_mode", "headless"), ("crypto_customer_id", customerId), ("payment_token", paymentToken),
                ("source_amount", sourceAmount), ("source_currency", sourceCurrency),
                ("destination_currency", destinationCurrency), ("destination_network", network),
                ("destination_networks[0]", network), ("wallet_address", walletAddress),
                ("customer_ip_address", customerIPAddress),
            ], userRef: userRef)
        let id = try require(answer["id"] as? String, "onramp session id")
        receiver?.assign(session: id, to: userRef)
        let details = answer["transaction_details"] as? [String: Any]
        return Session(
            id: id, status: answer["status"] as? String ?? "",
            destinationAmount: details?["destination_amount"] as? String)
    }

    /// The checkout endpoint the app's `clientSecretProvider` calls: checks the session out and returns its
    /// `client_secret`. Called again by the SDK after 3-D Secure. A bank debit needs the customer's online
    /// mandate acceptance: pass the IP address they accepted it from.
    public func checkout(sessionId: String, userRef: String, mandateAcceptedFrom ipAddress: String? = nil)
        async throws -> String
    {
        let mandate =
            ipAddress.map {
                [
                    ("mandate_data[customer_acceptance][type]", "online"),
                    ("mandate_data[customer_acceptance][online][ip_address]", $0),
                ]
            } ?? []
        let answer = try await post("/v1/crypto/onramp_sessions/\(sessionId)/checkout", mandate, userRef: userRef)
        return try require(answer["client_secret"] as? String, "client_secret")
    }

    /// Registers `url` for `crypto.onramp_session.updated`; returns the `whsec_…` secret (shown once).
    public func createWebhookEndpoint(url: String) async throws -> String {
        let answer = try await post(
            "/v1/webhook_endpoints", [("url", url), ("enabled_events[0]", "crypto.onramp_session.updated")])
        return try require(answer["secret"] as? String, "webhook secret")
    }

    private func post(_ path: String, _ fields: [(String, String)], userRef: String? = nil) async throws -> [String:
        Any]
    {
        let url = URL(string: serverURL.absoluteString.trimmingSuffixSlash() + path)!
        return try decode(try await transport.form("POST", url, fields, headers: headers(userRef)), path)
    }

    private func get(_ path: String, userRef: String?) async throws -> [String: Any] {
        let url = URL(string: serverURL.absoluteString.trimmingSuffixSlash() + path)!
        return try decode(try await transport.request("GET", url, headers: headers(userRef)), path)
    }

    private func headers(_ userRef: String?) -> [String: String] {
        var headers = ["Authorization": "Bearer \(secretKey)"]
        if let userRef, let access = tokens[userRef]?.accessToken { headers["Stripe-OAuth-Token"] = access }
        return headers
    }

    private func decode(_ answer: HTTPAnswer, _ path: String) throws -> [String: Any] {
        guard answer.isSuccess, let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        else { throw PartnerBackendError(status: answer.status, message: "\(path): \(answer.text.prefix(300))") }
        return object
    }

    private func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw PartnerBackendError(status: 200, message: "The answer has no \(what).") }
        return value
    }
}

extension String {
    fileprivate func trimmingSuffixSlash() -> String { hasSuffix("/") ? String(dropLast()) : self }
}

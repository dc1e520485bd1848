extension CryptoOnrampCoordinator {
    /// Whether `email` belongs to a Link account (`POST consumers/mobile/sessions/lookup`, as stripe-ios
    /// `STPAPIClient+Link.lookupConsumerSession` sends it).
    public func hasLinkAccount(with email: String) async throws -> Bool {
        try ensureActive()
        let answer = try await lookup([("email_address", email.lowercased()), ("email_source", "customer_email")])
        return answer.bool("exists") ?? false
    }

    /// Creates a Link account (phone in E.164) and signs the user in with it: a fresh sign-up's session
    /// counts as verified (`SIGNUP/STARTED`), so ``customerId`` is set. To let your backend act for the user,
    /// authorize a LinkAuthIntent with ``authorize(linkAuthIntentId:from:)``.
    public func registerLinkUser(email: String, fullName: String?, phone: String, country: String) async throws {
        try ensureActive()
        var fields = [
            CryptoOnrampAPI.requestSurface, ("email_address", email.lowercased()), ("phone_number", phone),
            ("locale", "en-US"), ("country_inferring_method", "PHONE_NUMBER"), ("country", country),
            ("consent_action", "entered_phone_number_email_clicked_signup_crypto_onramp"),
        ]
        if let fullName { fields.append(("legal_name", fullName)) }
        let answer = try await api.post("/v1/consumers/mobile/sign_up", fields + api.testModeAssertion)
        try await signIn(with: answer)
        self.email = email
    }

    /// Signs the user in for the LinkAuthIntent your backend created: the one-time code, then the consent
    /// screen the lookup describes (`consent_ui`). On consent ``customerId`` is set and your backend can
    /// fetch the OAuth tokens (and, with `auth.persist_login:read`, the Seamless Sign-In token).
    public func authorize(linkAuthIntentId: String, from viewController: PresentingViewController) async throws
        -> AuthorizationResult
    {
        try ensureActive()
        let lookup = try await lookup([("link_auth_intent_id", linkAuthIntentId)])
        guard let secret = lookup.string("consumer_session.client_secret") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The lookup returned no consumer session.")
        }
        let key = lookup.string("publishable_key")
        let credential = ("credentials[consumer_session_client_secret]", secret)
        let consent = LinkConsent(lookup.object("consent_ui"))
        _ = try await api.post(
            "/v1/consumers/sessions/start_verification", [credential, ("type", "SMS"), ("locale", "en-US")], key: key)
        for attempt in 1...3 {
            let response = await presenters.consent.requestConsent(
                email: lookup.string("consumer_session.email_address") ?? email, attempt: attempt, from: viewController)
            let code: String
            let granted: Bool
            switch response {
            case .cancel: return .canceled
            case .approve(let value): (code, granted) = (value, true)
            case .deny(let value): (code, granted) = (value, false)
            }
            var fields = [credential, ("type", "SMS"), ("code", code), CryptoOnrampAPI.requestSurface]
            if consent == .inline { fields.append(("consent_granted", granted ? "true" : "false")) }
            do {
                _ = try await api.post("/v1/consumers/sessions/confirm_verification", fields, key: key)
            } catch let error as CryptoOnrampError where error.apiCode == "consumer_verification_code_invalid" {
                continue
            }
            // `LinkController.presentFullConsentIfNeeded`: the full screen answers after the code; without a
            // consent screen the SDK reports consent and sends nothing.
            if consent == .fullScreen {
                _ = try await api.post(
                    "/v1/consumers/sessions/consent_update",
                    [credential, ("consent_granted", granted ? "true" : "false")], key: key)
            }
            guard granted else { return .denied }
            try await signIn(secret: secret, key: key)
            return .consented(customerId: customerId ?? "")
        }
        throw CryptoOnrampError(.verificationFailed, developer: "Three wrong one-time codes.")
    }

    /// Seamless Sign-In: signs in with the `link_auth_token_client_secret` your backend made from the user's
    /// stored Seamless Sign-In token. On ``CryptoOnrampError/Code/seamlessSignInTokenInvalid`` your backend
    /// drops the stored token and you fall back to ``authorize(linkAuthIntentId:from:)``.
    public func authenticateUserWithToken(_ linkAuthTokenClientSecret: String) async throws {
        try ensureActive()
        try await signIn(with: try await lookup([("link_auth_token_client_secret", linkAuthTokenClientSecret)]))
    }

    /// Signs the user out and forgets the session, the customer and the selected payment method.
    public func logOut() async throws {
        try ensureActive()
        if let consumerSessionSecret {
            _ = try await api.post(
                "/v1/consumers/sessions/log_out",
                [
                    ("credentials[consumer_session_client_secret]", consumerSessionSecret),
                    CryptoOnrampAPI.requestSurface,
                ],
                key: consumerPublishableKey)
        }
        consumerSessionSecret = nil
        consumerPublishableKey = nil
        customerId = nil
        selectedPaymentMethodId = nil
        email = nil
    }

    /// `POST consumers/mobile/sessions/lookup` with the fields every lookup carries.
    private func lookup(_ fields: [(String, String)]) async throws -> JSONObject {
        try await api.post(
            "/v1/consumers/mobile/sessions/lookup",
            [CryptoOnrampAPI.requestSurface, ("session_id", elementsSessionId)] + fields
                + [("supported_verification_types[0]", "SMS"), ("supported_verification_types[1]", "EMAIL")]
                + api.testModeAssertion)
    }

    /// Signs in with a lookup or sign-up answer whose session is already verified.
    private func signIn(with answer: JSONObject) async throws {
        guard let secret = answer.string("consumer_session.client_secret") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The answer has no consumer session.")
        }
        try await signIn(secret: secret, key: answer.string("publishable_key"))
    }

    /// Keeps the verified session and fetches its crypto customer (`POST crypto/internal/customers`).
    private func signIn(secret: String, key: String?) async throws {
        let customer = try await api.post(
            "/v1/crypto/internal/customers", [("credentials[consumer_session_client_secret]", secret)])
        guard let id = customer.string("id") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The crypto customer has no id.")
        }
        consumerSessionSecret = secret
        consumerPublishableKey = key
        customerId = id
    }
}

/// Where a LinkAuthIntent lookup asks for consent (`consent_ui`, stripe-ios `LinkConsentDataModel`).
enum LinkConsent {
    /// `consent_pane`: a screen after the code, answered with `consent_update`.
    case fullScreen
    /// `consent_section`: a line under the code, answered with `consent_granted` on confirmation.
    case inline
    /// Nothing to ask.
    case none

    init(_ consentUI: JSONObject?) {
        if consentUI?.object("consent_pane") != nil {
            self = .fullScreen
        } else if consentUI?.object("consent_section") != nil {
            self = .inline
        } else {
            self = .none
        }
    }
}

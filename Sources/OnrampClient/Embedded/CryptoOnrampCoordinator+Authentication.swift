extension CryptoOnrampCoordinator {
    /// Whether `email` belongs to a Link account.
    public func hasLinkAccount(with email: String) async throws -> Bool {
        try ensureActive()
        let answer = try await api.post("/v1/consumers/sessions/lookup", [("email_address", email)])
        return answer.bool("exists") ?? false
    }

    /// Creates a Link account (phone in E.164). Then authorize it with ``authorize(linkAuthIntentId:from:)``.
    public func registerLinkUser(email: String, fullName: String?, phone: String, country: String) async throws {
        try ensureActive()
        var fields = [("email_address", email), ("phone_number", phone), ("country", country)]
        if let fullName { fields.append(("legal_name", fullName)) }
        _ = try await api.post("/v1/consumers/accounts/sign_up", fields)
        self.email = email
    }

    /// Presents the one-time code and consent for the LinkAuthIntent your backend created. On consent, the user
    /// is signed in and ``customerId`` is set; your backend can then fetch the OAuth tokens.
    public func authorize(linkAuthIntentId: String, from viewController: PresentingViewController) async throws
        -> AuthorizationResult
    {
        try ensureActive()
        let lookup = try await api.post("/v1/consumers/sessions/lookup", [("link_auth_intent_id", linkAuthIntentId)])
        guard let secret = lookup.string("consumer_session.client_secret") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The lookup returned no consumer session.")
        }
        let credential = ("credentials[consumer_session_client_secret]", secret)
        _ = try await api.post("/v1/consumers/sessions/start_verification", [credential, ("type", "SMS")])
        for attempt in 1...3 {
            let response = await presenters.consent.requestConsent(
                email: lookup.string("consumer_session.email_address") ?? email, attempt: attempt, from: viewController)
            let code: String
            let consent: Bool
            switch response {
            case .cancel: return .canceled
            case .approve(let value): (code, consent) = (value, true)
            case .deny(let value): (code, consent) = (value, false)
            }
            do {
                let confirmed = try await api.post(
                    "/v1/consumers/sessions/confirm_verification",
                    [credential, ("code", code), ("consent_granted", consent ? "true" : "false")])
                guard confirmed.string("link_auth_intent.status") == "consented",
                    let customer = confirmed.string("crypto_customer_id")
                else { return .denied }
                consumerSessionSecret = secret
                customerId = customer
                linkAuthToken = confirmed.string("link_auth_token")
                return .consented(customerId: customer)
            } catch let error as CryptoOnrampError where error.apiCode == "consumer_verification_code_invalid" {
                continue
            }
        }
        throw CryptoOnrampError(.verificationFailed, developer: "Three wrong one-time codes.")
    }

    /// Seamless Sign-In: signs in with the `link_auth_token_client_secret` your backend obtained for a stored
    /// ``linkAuthToken``. On ``CryptoOnrampError/Code/seamlessSignInTokenInvalid`` clear the stored token and
    /// fall back to ``authorize(linkAuthIntentId:from:)``.
    public func authenticateUserWithToken(_ linkAuthTokenClientSecret: String) async throws {
        try ensureActive()
        let lookup = try await api.post(
            "/v1/consumers/sessions/lookup", [("link_auth_token_client_secret", linkAuthTokenClientSecret)])
        guard let secret = lookup.string("consumer_session.client_secret") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The lookup returned no consumer session.")
        }
        let customer = try await api.post(
            "/v1/crypto/internal/customers", [("credentials[consumer_session_client_secret]", secret)])
        consumerSessionSecret = secret
        customerId = customer.string("id")
    }

    /// Signs the user out and forgets the session, the customer and the selected payment method.
    public func logOut() async throws {
        try ensureActive()
        if let consumerSessionSecret {
            _ = try await api.post(
                "/v1/consumers/sessions/log_out",
                [("credentials[consumer_session_client_secret]", consumerSessionSecret)])
        }
        consumerSessionSecret = nil
        customerId = nil
        linkAuthToken = nil
        selectedPaymentMethodId = nil
        email = nil
    }
}

import Foundation

extension CryptoOnrampCoordinator {
    /// Checks out an onramp session your backend created, as stripe-ios `performCheckout` does:
    /// `clientSecretProvider` calls your backend, which runs the session's checkout and returns its
    /// `client_secret`; the session gives the PaymentIntent's client secret, and the PaymentIntent (read with
    /// the platform's publishable key) decides: `succeeded` completes, `processing` completes for a bank debit,
    /// `requires_action` presents 3-D Secure and then checks out again. Returns when the payment succeeded
    /// (fulfilment continues asynchronously).
    public func performCheckout(
        onrampSessionId: String, authenticationContext: any STPAuthenticationContext,
        clientSecretProvider: @escaping @Sendable (String) async throws -> String
    ) async throws -> CheckoutResult {
        try ensureActive()
        let platformKey = try await platformPublishableKey()
        for _ in 0..<3 {
            let secret = try await clientSecretProvider(onrampSessionId)
            let session = try await api.get(
                "/v1/crypto/internal/onramp_session",
                [("crypto_onramp_session", onrampSessionId), ("client_secret", secret)])
            guard let intentSecret = session.string("payment_intent_client_secret") else {
                throw CryptoOnrampError(
                    .unexpectedResponse, developer: "The session has no payment_intent_client_secret.")
            }
            let intent = try await paymentIntent(intentSecret, key: platformKey)
            switch intent.string("status") {
            case "succeeded", "requires_capture":
                return .completed
            case "processing" where intent.any("payment_method_types") as? [String] == ["us_bank_account"]:
                return .completed
            case "requires_action":
                guard let text = intent.string("next_action.redirect_to_url.url"), let url = URL(string: text) else {
                    throw CryptoOnrampError(.unexpectedResponse, developer: "requires_action without a redirect.")
                }
                let outcome = try await presenters.threeDSecure.presentChallenge(url: url, from: authenticationContext)
                // `STPPaymentHandler` reads the intent again when the page closes; one still waiting for the
                // challenge is a cancellation.
                let after = try await paymentIntent(intentSecret, key: platformKey)
                if outcome == .canceled || after.string("status") == "requires_action" { return .canceled }
            case let status:
                let code = intent.string("last_payment_error.code")
                throw CryptoOnrampError(
                    code == nil ? .checkoutFailed : .paymentDeclined, apiCode: code,
                    developer: "PaymentIntent of \(onrampSessionId) is \(status ?? "unknown") (\(code ?? "no error")).")
            }
        }
        throw CryptoOnrampError(.checkoutFailed, developer: "Checkout needed more than two authentication steps.")
    }

    /// `GET payment_intents/{id}?client_secret=…&expand[0]=payment_method` with the platform's key; the id is
    /// the client secret's part before `_secret_`.
    private func paymentIntent(_ clientSecret: String, key: String) async throws -> JSONObject {
        guard let range = clientSecret.range(of: "_secret_") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The PaymentIntent client secret is malformed.")
        }
        let id = String(clientSecret[..<range.lowerBound])
        return try await api.get(
            "/v1/payment_intents/\(id)", [("client_secret", clientSecret), ("expand[0]", "payment_method")], key: key)
    }
}

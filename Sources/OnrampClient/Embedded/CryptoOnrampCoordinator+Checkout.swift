import Foundation

extension CryptoOnrampCoordinator {
    /// Checks out an onramp session your backend created. `clientSecretProvider` must call your backend, which
    /// calls the session's checkout endpoint and returns its `client_secret`; it is called again after a
    /// 3-D Secure challenge. Returns when the payment succeeded (fulfilment continues asynchronously).
    public func performCheckout(
        onrampSessionId: String, authenticationContext: any STPAuthenticationContext,
        clientSecretProvider: @escaping @Sendable (String) async throws -> String
    ) async throws -> CheckoutResult {
        try ensureActive()
        for _ in 0..<3 {
            let secret = try await clientSecretProvider(onrampSessionId)
            let session = try await api.get(
                "/v1/crypto/internal/onramp_session",
                [("crypto_onramp_session", onrampSessionId), ("client_secret", secret)])
            let lastError = session.string("transaction_details.last_error")
            switch session.string("status") {
            case "fulfillment_processing", "fulfillment_complete":
                return .completed
            case "requires_payment" where lastError == "action_required":
                guard let text = session.string("next_action.redirect_to_url.url"), let url = URL(string: text) else {
                    throw CryptoOnrampError(.unexpectedResponse, developer: "action_required without next_action.")
                }
                let outcome = try await presenters.threeDSecure.presentChallenge(url: url, from: authenticationContext)
                if outcome == .canceled { return .canceled }
            case let status:
                throw CryptoOnrampError(
                    lastError == "transaction_failed" ? .paymentDeclined : .checkoutFailed, apiCode: lastError,
                    developer:
                        "Session \(onrampSessionId) is \(status ?? "unknown") (last_error \(lastError ?? "none")).")
            }
        }
        throw CryptoOnrampError(.checkoutFailed, developer: "Checkout needed more than two authentication steps.")
    }
}

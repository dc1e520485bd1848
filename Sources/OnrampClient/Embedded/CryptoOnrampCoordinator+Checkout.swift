import Foundation
import OnrampWire

extension CryptoOnrampCoordinator {
    /// Checks out an onramp session your backend created, as stripe-ios `performCheckout` does
    /// (`CryptoOnrampCoordinator.swift` at 00bc96b9): `clientSecretProvider` calls your backend, which runs the
    /// session's checkout and returns its `client_secret`; the session gives the PaymentIntent's client secret,
    /// and the PaymentIntent (read with the platform's publishable key) decides (``checkoutResult(_:)``).
    /// `requires_action` presents 3-D Secure; the intent must then read as a success (`requires_capture` once
    /// authorised) before your backend is asked to check out again, and that second checkout must succeed.
    /// Returns when the payment succeeded (fulfilment continues asynchronously).
    public func performCheckout(
        onrampSessionId: String, authenticationContext: any STPAuthenticationContext,
        clientSecretProvider: @escaping @Sendable (String) async throws -> String
    ) async throws -> CheckoutResult {
        try ensureActive()
        let platformKey = try await platformPublishableKey()
        for attempt in 0..<2 {
            let secret = try await clientSecretProvider(onrampSessionId)
            let session = try await api.get(
                "/v1/crypto/internal/onramp_session",
                [("crypto_onramp_session", onrampSessionId), ("client_secret", secret)])
            guard let intentSecret = session.string("payment_intent_client_secret") else {
                throw CryptoOnrampError(
                    .unexpectedResponse, developer: "The session has no payment_intent_client_secret.")
            }
            let intent = try await paymentIntent(intentSecret, key: platformKey)
            switch Self.checkoutResult(intent) {
            case .completed?: return .completed
            case .failed?: throw Self.paymentFailed(intent, onrampSessionId)
            case nil where attempt == 0:
                guard let text = intent.nextAction?.redirectToURL.url, let url = URL(string: text) else {
                    throw CryptoOnrampError(.unexpectedResponse, developer: "requires_action without a redirect.")
                }
                let outcome = try await presenters.threeDSecure.presentChallenge(url: url, from: authenticationContext)
                // `STPPaymentHandler` reads the intent again when the page closes; one still waiting for the
                // challenge is a cancellation.
                let after = try await paymentIntent(intentSecret, key: platformKey)
                if outcome == .canceled || after.status == .requiresAction { return .canceled }
                guard Self.checkoutResult(after) == .completed else { throw Self.paymentFailed(after, onrampSessionId) }
            case nil:
                throw Self.paymentFailed(intent, onrampSessionId)
            }
        }
        throw CryptoOnrampError(.checkoutFailed, developer: "Checkout needed more than one authentication step.")
    }

    /// What a PaymentIntent means for checkout, as the SDK's private `STPPaymentIntent.checkoutResult`:
    /// `succeeded` and `requires_capture` complete, `processing` completes a bank debit only,
    /// `requires_action` has no result yet (`nil`), and every other status fails.
    enum IntentOutcome: Equatable {
        case completed
        case failed
    }

    static func checkoutResult(_ intent: StripePaymentIntent) -> IntentOutcome? {
        switch intent.status {
        case .succeeded, .requiresCapture: .completed
        case .processing where intent.paymentMethodTypes == ["us_bank_account"]: .completed
        case .requiresAction: nil
        default: .failed
        }
    }

    /// `CheckoutError.paymentFailed`, typed by the intent's last payment error when it has one.
    private static func paymentFailed(_ intent: StripePaymentIntent, _ sessionId: String) -> CryptoOnrampError {
        let code = intent.lastPaymentError?.code
        return CryptoOnrampError(
            code == nil ? .checkoutFailed : .paymentDeclined, apiCode: code,
            developer: "PaymentIntent of \(sessionId) is \(intent.status.rawValue) (\(code ?? "no error")).")
    }

    /// `GET payment_intents/{id}?client_secret=…&expand[0]=payment_method` with the platform's key; the id is
    /// the client secret's part before `_secret_`.
    private func paymentIntent(_ clientSecret: String, key: String) async throws -> StripePaymentIntent {
        guard let range = clientSecret.range(of: "_secret_") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The PaymentIntent client secret is malformed.")
        }
        let id = String(clientSecret[..<range.lowerBound])
        return try await api.get(
            "/v1/payment_intents/\(id)", [("client_secret", clientSecret), ("expand[0]", "payment_method")], key: key,
            as: StripePaymentIntent.self)
    }
}

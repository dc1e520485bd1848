import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices
import OnrampWire

/// `GET /v1/payment_intents/{id}`: the PaymentIntent `CryptoOnrampCoordinator.performCheckout` retrieves
/// after the partner's checkout (and `STPPaymentHandler` again after 3-D Secure), with the publishable key
/// and the intent's client secret, or with the secret key alone; and, with the secret key, the intents deposits
/// into a `crypto.deposit_address` captured.
struct PaymentIntentRoutes: Sendable {
    let routes: StripeRoutes
    let sessions: OnrampSessionService
    let deposits: DepositAddressService

    func retrievePaymentIntent(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let id = request.pathParameters["id"] ?? ""
        let secret = request.queryValue("client_secret")
        if caller.publishable, secret == nil {
            throw StripeErrors.invalid(
                "parameter_missing", "Send the PaymentIntent's client_secret with a publishable key.",
                param: "client_secret")
        }
        let matches = { (clientSecret: String) in
            secret.map { ConstantTime.equals(Array($0.utf8), Array(clientSecret.utf8)) } ?? true
        }
        // A session's intent first (the SDK's checkout reads it); a deposit's only when no session has the id.
        if let intent = try sessions.paymentIntent(id: id, caller: caller) {
            guard matches(intent.clientSecret) else {
                throw StripeErrors.missing("payment_intent: \(id)", param: "intent")
            }
            let expand = ["expand[0]", "expand[]", "expand"].contains { request.queryValue($0) == "payment_method" }
            return intent.wire(expandPaymentMethod: expand).json
        }
        guard let found = try deposits.deposit(paymentIntent: id, caller: caller), matches(found.deposit.clientSecret)
        else { throw StripeErrors.missing("payment_intent: \(id)", param: "intent") }
        return deposits.paymentIntentJSON(found.deposit, address: found.address)
    }
}

import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// `GET /v1/payment_intents/{id}`: the PaymentIntent `CryptoOnrampCoordinator.performCheckout` retrieves
/// after the partner's checkout (and `STPPaymentHandler` again after 3-D Secure), with the publishable key
/// and the intent's client secret, or with the secret key alone.
struct PaymentIntentRoutes: Sendable {
    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        routes.client(&router, "GET", "/v1/payment_intents/{id}", Operations.retrievePaymentIntent) {
            request, caller, _ in
            let id = request.pathParameters["id"] ?? ""
            let secret = request.queryValue("client_secret")
            if caller.publishable, secret == nil {
                throw StripeErrors.invalid(
                    "parameter_missing", "Send the PaymentIntent's client_secret with a publishable key.",
                    param: "client_secret")
            }
            let expand = ["expand[0]", "expand[]", "expand"].contains { request.queryValue($0) == "payment_method" }
            guard let intent = try find(id, caller: caller),
                secret.map({ ConstantTime.equals(Array($0.utf8), Array(intent.clientSecret.utf8)) }) ?? true
            else { throw StripeErrors.missing("payment_intent: \(id)", param: "intent") }
            return intent.json(expandPaymentMethod: expand)
        }
    }

    /// The intent of the caller's project and mode with `id`, read in one transaction with its method.
    private func find(_ id: String, caller: StripeCaller) throws -> PaymentIntentObject? {
        guard let sessionId = PaymentIntentObject.sessionId(ofIntent: id) else { return nil }
        return try context.database.read { connection in
            guard
                let session = try OnrampSessionRecord.find(
                    connection, id: sessionId, projectId: caller.projectId, livemode: caller.livemode)
            else { return nil }
            let method = try PaymentMethodStore(connection: connection).token(
                id: session.details.purchase.paymentToken, customerId: session.customerId
            ).map { (id: $0.paymentMethodId, method: $0.method) }
            let decimals = (try? context.catalogue.fiatCurrency(session.details.purchase.sourceCurrency))?.decimals
            return PaymentIntentObject(session: session, paymentMethod: method, currencyDecimals: decimals ?? 2)
        }
    }
}

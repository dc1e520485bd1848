import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// `POST /v1/payment_methods` from test cards (Luhn-checked; `4000000000003220` needs 3-D Secure,
/// `4000000000000002` declines, other valid numbers succeed), card tokens (`card[token]=tok_…`, as Apple
/// Pay sends them) and test bank accounts (`000111111116` fails); `wallet[type]=apple_pay` simulates Apple Pay.
/// ``PaymentMethodCreation`` decodes the form and ``PaymentMethodService`` stores the method.
struct PaymentMethodRoutes: Sendable {
    let routes: StripeRoutes
    let service: PaymentMethodService

    init(routes: StripeRoutes) {
        self.routes = routes
        service = PaymentMethodService(context: routes.context)
    }

    func createPaymentMethod(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let created = try service.create(PaymentMethodCreation(RequestFields.stripe(body)), caller: caller)
        return created.method.wire(id: created.id, livemode: caller.livemode, created: created.created / 1000).json
    }
}

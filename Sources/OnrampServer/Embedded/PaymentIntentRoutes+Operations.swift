import HTTPServer
import OnrampServices
import OnrampWire

extension PaymentIntentRoutes {
    /// The OpenAPI operation of the PaymentIntent route.
    enum Operations {
        /// Retrieves a PaymentIntent.
        static let retrievePaymentIntent = APIOperation.stripe(
            "GET /v1/payment_intents/{id}",
            "retrievePaymentIntent", "The PaymentIntent behind an onramp session's checkout.", tag: "Embedded",
            auth: .anyKey,
            query: [
                APIParameter("client_secret", .string(maxLength: 128)),
                APIParameter("expand[0]", .enumeration(["payment_method"])),
            ],
            response: StripePaymentIntent.schema)
    }
}

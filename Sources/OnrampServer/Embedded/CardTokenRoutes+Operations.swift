import HTTPServer
import OnrampServices
import OnrampWire

extension CardTokenRoutes {
    /// The OpenAPI operation of the card tokens.
    enum Operations {
        /// The token form: an Apple Pay payment, or a test card.
        static let tokenForm = APISchema.object([
            "pk_token": .string(maxLength: 16_384).described(
                "The Apple Pay payment data; empty from a simulator (test mode, with an `ApplePayStubs~…` id)."),
            "pk_token_instrument_name": .string(maxLength: 256), "pk_token_payment_network": .string(maxLength: 64),
            "pk_token_transaction_id": .string(maxLength: 256).described(
                "`ApplePayStubs~<card number>~…` picks the test card."),
            "card": PaymentMethodRoutes.Operations.cardForm.described("Without pk_token: a test card."),
        ])

        /// Creates a token.
        static let createToken = APIOperation.stripe(
            "POST /v1/tokens",
            "createToken", "Creates a single-use card token from an Apple Pay payment or a test card.",
            tag: "Embedded", auth: .anyKey, form: tokenForm, response: StripeCardToken.schema)
    }
}

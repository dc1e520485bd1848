import HTTPServer
import OnrampServices
import OnrampWire

extension PaymentMethodRoutes {
    /// The OpenAPI operations of the test payment methods.
    enum Operations {
        /// A form's unsigned integer (`exp_month=12`).
        static let digits = "^[0-9]+$"

        /// The card a card method is made from.
        static let cardForm = APISchema.object(
            [
                "number": .string(maxLength: 32, pattern: "^ *([0-9] *){12,19}$").described("Luhn-checked."),
                "exp_month": .string(maxLength: 2, pattern: digits), "exp_year": .string(maxLength: 4, pattern: digits),
            ], required: ["number", "exp_month", "exp_year"])

        /// A card token (`POST /v1/tokens`) in place of the card's details.
        static let cardTokenForm = APISchema.object(
            ["token": .string(minLength: 1, maxLength: 64).described("A `tok_…` id, spent once.")],
            required: ["token"])

        /// A card method's form (`wallet[type]=apple_pay` simulates Apple Pay).
        static let cardMethodForm = APISchema.object(
            [
                "type": .constant("card"), "card": .anyOf([cardForm, cardTokenForm]),
                "wallet": .object(["type": .string(maxLength: 32)]), "billing_details": billingDetails,
                "metadata": .map(.string(maxLength: 500)),
            ], required: ["type", "card"])

        /// The bank account a bank method is made from.
        static let bankAccountForm = APISchema.object(
            [
                "routing_number": .string(maxLength: 9, pattern: "^[0-9]{9}$"),
                "account_number": .string(maxLength: 17, pattern: "^[0-9]{4,17}$"),
                "account_type": .string(maxLength: 16),
            ], required: ["routing_number", "account_number"])

        /// A bank method's form.
        static let bankMethodForm = APISchema.object(
            [
                "type": .constant("us_bank_account"), "us_bank_account": bankAccountForm,
                "billing_details": billingDetails, "metadata": .map(.string(maxLength: 500)),
            ], required: ["type", "us_bank_account"])

        /// `billing_details`, as StripeApplePay sends it from the payment's billing contact (not kept).
        static let billingDetails = APISchema.object([
            "name": .string(maxLength: 200), "email": .string(maxLength: 800), "phone": .string(maxLength: 32),
            "address": .map(.string(maxLength: 200)),
        ])

        /// The card of a method or payment token.
        static let cardDetails = StripePaymentMethod.Card.schema.refining([
            "brand": .enumeration(["visa", "mastercard", "amex", "unknown"])
        ])

        /// The `payment_method` object.
        static let paymentMethod = StripePaymentMethod.schema.refining(["card": cardDetails])

        /// Creates a payment method.
        static let createPaymentMethod = APIOperation.stripe(
            "POST /v1/payment_methods",
            "createPaymentMethod", "Creates a test payment method from a test card or bank account.",
            tag: "Embedded", auth: .anyKey, form: .anyOf([cardMethodForm, bankMethodForm]), response: paymentMethod)
    }
}

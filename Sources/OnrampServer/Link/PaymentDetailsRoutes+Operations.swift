import HTTPServer
import OnrampServices
import OnrampWire

extension PaymentDetailsRoutes {
    /// The OpenAPI operations of the Link wallet routes (publishable or secret key, a verified consumer session).
    enum Operations {
        static let credentials = ConsumerRoutes.Operations.credentials

        /// `{redacted_payment_details: […]}`.
        static let detailsList = APISchema.object(
            ["redacted_payment_details": .array(ConsumerPaymentDetails.schema)], required: ["redacted_payment_details"])

        /// Lists the consumer's payment details.
        static let listPaymentDetails = APIOperation.stripe(
            "POST /v1/consumers/payment_details/list",
            "listPaymentDetails", "Lists a Link consumer's saved payment details.", tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "request_surface": .string(maxLength: 64),
                    "types": .array(.enumeration(["CARD", "BANK_ACCOUNT"]), maxItems: 4),
                ], required: ["credentials"]),
            response: detailsList)

        /// Saves payment details.
        static let createPaymentDetails = APIOperation.stripe(
            "POST /v1/consumers/payment_details",
            "createPaymentDetails", "Saves a card to a Link consumer's wallet.", tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "type": .enumeration(["card", "bank_account"]),
                    "card": PaymentMethodRoutes.Operations.cardForm.described(
                        "No CVC: the consumer endpoint takes none."), "billing_email_address": .string(maxLength: 800),
                    "billing_address": .map(.string(maxLength: 500)), "active": .enumeration(["true", "false"]),
                    "is_default": .enumeration(["true", "false"]), "request_surface": .string(maxLength: 64),
                ], required: ["credentials", "type"]),
            response: .object(
                ["redacted_payment_details": ConsumerPaymentDetails.schema], required: ["redacted_payment_details"]))

        /// Updates saved payment details.
        static let updatePaymentDetails = APIOperation.stripe(
            "POST /v1/consumers/payment_details/{id}",
            "updatePaymentDetails", "Updates a card's expiry, network or billing details, or makes it the default.",
            tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "exp_month": .string(maxLength: 2), "exp_year": .string(maxLength: 4),
                    "preferred_network": .string(maxLength: 32), "billing_email_address": .string(maxLength: 800),
                    "billing_address": .map(.string(maxLength: 500)), "is_default": .enumeration(["true", "false"]),
                    "request_surface": .string(maxLength: 64),
                ], required: ["credentials"]),
            response: .object(
                ["redacted_payment_details": ConsumerPaymentDetails.schema], required: ["redacted_payment_details"]))

        /// Deletes saved payment details.
        static let deletePaymentDetails = APIOperation.stripe(
            "DELETE /v1/consumers/payment_details/{id}",
            "deletePaymentDetails", "Deletes saved payment details (the oldest left becomes the default).",
            tag: "Link", auth: .anyKey,
            form: .object(
                ["credentials": credentials, "request_surface": .string(maxLength: 64)], required: ["credentials"]),
            response: .object([:]))

        /// Shares payment details as a payment method.
        static let sharePaymentDetails = APIOperation.stripe(
            "POST /v1/consumers/payment_details/share",
            "sharePaymentDetails", "Makes a payment method of a consumer's saved payment details.", tag: "Link",
            auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "id": .string(minLength: 1, maxLength: 64),
                    "expected_payment_method_type": .enumeration(["card", "us_bank_account", "link"]),
                    "allow_redisplay": .string(maxLength: 32), "billing_phone": .string(maxLength: 32),
                    "payment_method_options": .object([
                        "card": .object(["cvc": .string(maxLength: 4).described("Not checked in the sandbox.")])
                    ]),
                    "request_surface": .string(maxLength: 64),
                ], required: ["credentials", "id"]),
            response: .object(
                ["payment_method": PaymentMethodRoutes.Operations.paymentMethod], required: ["payment_method"]))
    }
}

import OnrampCore
import OnrampWire

/// `POST /v1/consumers/payment_details` as the service takes it: a test card (bank accounts reach Link
/// through Financial Connections, which this sandbox does not run), its billing details as sent, and
/// whether it becomes the default. Decoded at the edge; no I/O.
package struct PaymentDetailsCreation: Sendable {
    package let method: TestPaymentMethod
    /// `billing_email_address` (lower-cased) and `billing_address`, when sent.
    package let billing: JSONValue
    package let isDefault: Bool

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        switch try fields.required("type", maxLength: 32) {
        case "card":
            guard let card = try fields.object("card") else {
                throw OnrampError.refusal("parameter_missing", "Missing card details.", parameter: "card")
            }
            method = try TestPaymentMethod(card: card, wallet: nil)
        case "bank_account":
            throw OnrampError.refusal(
                "financial_connections_unsupported",
                "Bank accounts reach Link through Financial Connections, which this sandbox does not run; create a us_bank_account payment method instead.",
                parameter: "bank_account[account]")
        default:
            throw fields.invalid("type", "type must be card or bank_account.")
        }
        var billing: [(String, JSONValue)] = []
        if let email = try fields.optional("billing_email_address", maxLength: 800) {
            billing.append(("billing_email_address", .string(email.lowercased())))
        }
        if let address = try fields.optionalStringMap("billing_address") {
            billing.append(("billing_address", address.json))
        }
        self.billing = .object(billing)
        isDefault = try fields.optionalBool("is_default") ?? false
    }
}

/// `POST /v1/consumers/payment_details/{id}` as the service takes it (stripe-ios `updatePaymentDetails`): a
/// card's new expiry (`exp_month` and `exp_year` together), `preferred_network`, billing details replacing the
/// saved ones, and `is_default: true` making it the default. Decoded at the edge; no I/O.
package struct PaymentDetailsUpdate: Sendable {
    /// The new expiry, checked as a card's is when saved.
    package let expiry: (month: Int, year: Int)?
    package let preferredNetwork: String?
    /// `billing_email_address` (lower-cased) and `billing_address`, each replacing the saved one when sent.
    package let billing: [(String, JSONValue)]
    package let makeDefault: Bool

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        let month = try fields.optional("exp_month", maxLength: 2)
        let year = try fields.optional("exp_year", maxLength: 4)
        switch (month.flatMap { Int($0) }, year.flatMap { Int($0) }) {
        case (nil, nil) where month == nil && year == nil:
            expiry = nil
        case (let month?, let year?) where (1...12).contains(month) && year >= 2024:
            expiry = (month, year)
        default:
            throw FieldError(
                status: 402, code: "invalid_expiry_year", message: "Your card's expiration date is invalid.",
                param: "exp_year", type: "card_error")
        }
        preferredNetwork = try fields.optional("preferred_network", maxLength: 32)
        var billing: [(String, JSONValue)] = []
        if let email = try fields.optional("billing_email_address", maxLength: 800) {
            billing.append(("billing_email_address", .string(email.lowercased())))
        }
        if let address = try fields.optionalStringMap("billing_address") {
            billing.append(("billing_address", address.json))
        }
        self.billing = billing
        makeDefault = try fields.optionalBool("is_default") ?? false
    }
}

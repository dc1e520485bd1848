import OnrampCore
import OnrampWire

/// `POST /v1/payment_methods` as the service takes it: the method its test card or bank account makes, or a
/// card token to spend on one. Decoded at the edge; no I/O.
package enum PaymentMethodCreation: Sendable {
    /// A method made from the form's own card or bank account.
    case method(TestPaymentMethod)
    /// The card of a single-use token (`card[token]=tok_…`, Apple Pay's second step in StripeApplePay
    /// `PaymentMethod+API.swift`).
    case cardToken(String)

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        switch try fields.required("type", maxLength: 32) {
        case "card":
            guard let card = try fields.object("card") else {
                throw FieldError.stripe("parameter_missing", "Missing card details.", param: "card")
            }
            if let token = try card.optional("token", maxLength: 64) {
                self = .cardToken(token)
            } else {
                let wallet = try fields.object("wallet")?.optional("type", maxLength: 32)
                self = .method(try TestPaymentMethod(card: card, wallet: wallet))
            }
        case "us_bank_account":
            guard let bank = try fields.object("us_bank_account") else {
                throw FieldError.stripe("parameter_missing", "Missing bank details.", param: "us_bank_account")
            }
            self = .method(try TestPaymentMethod(bankAccount: bank))
        default:
            throw fields.invalid("type", "type must be card or us_bank_account.")
        }
    }
}

/// `POST /v1/tokens` as the service takes it: the card an Apple Pay payment or a test card stands for.
package struct CardTokenCreation: Sendable {
    package let method: TestPaymentMethod
    /// Whether the card came from Apple Pay (`tokenization_method`).
    package let applePay: Bool

    /// Decodes the form's fields. The sandbox cannot decrypt an Apple Pay payment: its card is the one the
    /// simulator's transaction id names (`ApplePayStubs~4242424242424242~…`, the SDK's own stub; the test Visa
    /// `4242` when the stub names none), else the test Visa. The simulator's payment data is empty
    /// (StripeApplePay `Token+API.swift` at 0032a69d sends `pk_token=` with the stub id), which test mode
    /// accepts as Stripe does; live mode refuses an empty `pk_token`, since only a device's payment is real.
    package init(_ fields: RequestFields, livemode: Bool) throws {
        if let paymentData = try fields.optional("pk_token", maxLength: 16_384) {
            let transaction = try fields.optional("pk_token_transaction_id", maxLength: 256) ?? ""
            let parts = transaction.split(separator: "~", omittingEmptySubsequences: false)
            let stub = parts.count > 1 && parts[0] == "ApplePayStubs"
            guard !paymentData.isEmpty || (stub && !livemode) else {
                throw fields.invalid(
                    "pk_token",
                    livemode
                        ? "pk_token is empty: Apple Pay from a simulator works only with a test-mode key."
                        : "pk_token is empty and pk_token_transaction_id is not a simulator's ApplePayStubs~… id.")
            }
            let number = stub && !parts[1].isEmpty ? String(parts[1]) : "4242424242424242"
            let card = RequestFields(
                ["number": .string(number), "exp_month": "12", "exp_year": "2034"], invalidCode: "parameter_invalid",
                missingCode: "parameter_missing")
            method = try TestPaymentMethod(card: card, wallet: "apple_pay")
            applePay = true
        } else if let card = try fields.object("card"), try card.optional("number", maxLength: 32) != nil {
            method = try TestPaymentMethod(card: card, wallet: nil)
            applePay = false
        } else {
            throw FieldError.stripe(
                "parameter_missing", "Send pk_token (Apple Pay) or card details.", param: "pk_token")
        }
    }
}

extension TestPaymentMethod {
    /// A card method from Stripe's card form (`number`, `exp_month`, `exp_year`), Luhn-checked:
    /// `4000000000003220` needs 3-D Secure, `4000000000000002` declines, other valid numbers succeed.
    /// `wallet` `apple_pay` marks it as an Apple Pay card.
    package init(card: RequestFields, wallet: String?) throws {
        let number = try card.required("number", maxLength: 32).filter { $0 != " " }
        guard (12...19).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }),
            Self.passesLuhn(number)
        else {
            throw FieldError(
                status: 402, code: "incorrect_number", message: "Your card number is incorrect.", param: "card[number]",
                type: "card_error")
        }
        let month = Int(try card.required("exp_month", maxLength: 2)) ?? 0
        let year = Int(try card.required("exp_year", maxLength: 4)) ?? 0
        guard (1...12).contains(month), year >= 2024 else {
            throw FieldError(
                status: 402, code: "invalid_expiry_year", message: "Your card's expiration date is invalid.",
                param: "card[exp_year]", type: "card_error")
        }
        let behaviour: TestPaymentMethod.Behaviour
        switch number {
        case "4000000000003220", "4000002760003184": behaviour = .requiresAuthentication
        case "4000000000000002", "4000000000009995": behaviour = .declines
        default: behaviour = .succeeds
        }
        let brand: String
        switch number.first {
        case "4": brand = "visa"
        case "5", "2": brand = "mastercard"
        case "3": brand = "amex"
        default: brand = "unknown"
        }
        self = .card(
            brand: brand, last4: String(number.suffix(4)), expMonth: month, expYear: year,
            wallet: wallet == "apple_pay" ? "apple_pay" : nil, behaviour: behaviour)
    }

    /// A bank method from Stripe's `us_bank_account` form; account `000111111116` fails.
    package init(bankAccount bank: RequestFields) throws {
        let routing = try bank.required("routing_number", maxLength: 9)
        let account = try bank.required("account_number", maxLength: 17)
        guard routing.count == 9, routing.allSatisfy({ $0.isASCII && $0.isNumber }), (4...17).contains(account.count),
            account.allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw bank.invalid("us_bank_account[account_number]", "Invalid routing or account number.") }
        let accountType = try bank.optional("account_type", maxLength: 16) ?? "checking"
        self.init(
            bankAccount: .init(
                accountType: accountType, bankName: "STRIPE TEST BANK", last4: String(account.suffix(4)),
                routingNumber: routing),
            behaviour: account == "000111111116" ? .declines : .succeeds)
    }

    /// The Luhn checksum.
    package static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard var digit = character.wholeNumberValue else { return false }
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }
}

import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// `POST /v1/payment_methods` from test cards (Luhn-checked; `4000000000003220` needs 3-D Secure,
/// `4000000000000002` declines, other valid numbers succeed), card tokens (`card[token]=tok_…`, as Apple
/// Pay sends them) and test bank accounts (`000111111116` fails); `wallet[type]=apple_pay` simulates Apple Pay.
struct PaymentMethodRoutes: Sendable {
    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        routes.client(&router, "POST", "/v1/payment_methods", Operations.createPaymentMethod) { _, caller, body in
            try create(caller: caller, body: body)
        }
    }

    func create(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let method: TestPaymentMethod
        switch try fields.required("type", maxLength: 32) {
        case "card":
            guard let card = try fields.object("card") else {
                throw StripeErrors.invalid("parameter_missing", "Missing card details.", param: "card")
            }
            if let token = try card.optional("token", maxLength: 64) {
                // Apple Pay's second step (StripeApplePay `PaymentMethod+API.swift`): the card of a token.
                method = try CardTokens(context: context).redeem(token, caller: caller)
            } else {
                method = try Self.card(card, wallet: try fields.object("wallet")?.optional("type", maxLength: 32))
            }
        case "us_bank_account":
            guard let bank = try fields.object("us_bank_account") else {
                throw StripeErrors.invalid("parameter_missing", "Missing bank details.", param: "us_bank_account")
            }
            method = try Self.bankAccount(bank)
        default:
            throw fields.invalid("type", "type must be card or us_bank_account.")
        }
        let id = context.ids.id(prefix: IdPrefix.paymentMethod)
        let now = context.nowMilliseconds
        try context.database.transaction { connection in
            try PaymentMethodStore(connection: connection).insertMethod(
                id: id, projectId: caller.projectId, method, now: now)
        }
        return method.methodJSON(id: id, livemode: caller.livemode, created: now / 1000)
    }

    static func card(_ card: RequestFields, wallet: String?) throws -> TestPaymentMethod {
        let number = try card.required("number", maxLength: 32).filter { $0 != " " }
        guard (12...19).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }), luhn(number) else {
            throw HTTPError(
                status: 402, code: "incorrect_number", message: "Your card number is incorrect.", param: "card[number]",
                type: "card_error")
        }
        let month = Int(try card.required("exp_month", maxLength: 2)) ?? 0
        let year = Int(try card.required("exp_year", maxLength: 4)) ?? 0
        guard (1...12).contains(month), year >= 2024 else {
            throw HTTPError(
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
        return try TestPaymentMethod.card(
            brand: brand, last4: String(number.suffix(4)), expMonth: month, expYear: year,
            wallet: wallet == "apple_pay" ? "apple_pay" : nil, behaviour: behaviour)
    }

    static func bankAccount(_ bank: RequestFields) throws -> TestPaymentMethod {
        let routing = try bank.required("routing_number", maxLength: 9)
        let account = try bank.required("account_number", maxLength: 17)
        guard routing.count == 9, routing.allSatisfy({ $0.isASCII && $0.isNumber }), (4...17).contains(account.count),
            account.allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw bank.invalid("us_bank_account[account_number]", "Invalid routing or account number.") }
        let accountType = try bank.optional("account_type", maxLength: 16) ?? "checking"
        let details: JSONValue = [
            "account_type": .string(accountType), "bank_name": "STRIPE TEST BANK",
            "last4": .string(String(account.suffix(4))),
            "routing_number": .string(routing),
        ]
        return try TestPaymentMethod(stored: [
            "type": "us_bank_account", "behaviour": .string(account == "000111111116" ? "declines" : "succeeds"),
            "us_bank_account": details,
        ])
    }

    /// The Luhn checksum.
    static func luhn(_ digits: String) -> Bool {
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

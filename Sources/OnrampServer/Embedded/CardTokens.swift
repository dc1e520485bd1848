import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// `POST /v1/tokens`: single-use card tokens, the first step of Apple Pay in stripe-ios
/// (`StripeApplePay/…/PaymentsCore/API/Token+API.swift`: `pk_token`, `pk_token_instrument_name`,
/// `pk_token_payment_network`, `pk_token_transaction_id`, `card[name]`, `card[address_*]`), or of a test card
/// (`card[number]`, `card[exp_month]`, `card[exp_year]`). The sandbox cannot decrypt an Apple Pay payment:
/// its card is the one the simulator's transaction id names (`ApplePayStubs~4242424242424242~…`, the SDK's
/// own stub), else the test Visa `4242`. A token makes one payment method and lasts ten minutes.
struct CardTokens: Sendable {
    /// How long an unused token stays redeemable.
    static let lifetimeMilliseconds: Int64 = 600_000

    let context: ServerContext

    func register(on router: inout Router, routes: StripeRoutes) {
        routes.client(&router, "POST", "/v1/tokens", Operations.createToken) { _, caller, body in
            try create(caller: caller, body: body)
        }
    }

    func create(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let method: TestPaymentMethod
        let applePay: Bool
        if let paymentData = try fields.optional("pk_token", maxLength: 16_384) {
            guard !paymentData.isEmpty else { throw fields.invalid("pk_token", "pk_token is empty.") }
            method = try applePayCard(fields)
            applePay = true
        } else if let card = try fields.object("card"), try card.optional("number", maxLength: 32) != nil {
            method = try PaymentMethodRoutes.card(card, wallet: nil)
            applePay = false
        } else {
            throw StripeErrors.invalid(
                "parameter_missing", "Send pk_token (Apple Pay) or card details.", param: "pk_token")
        }
        let id = context.ids.id(prefix: IdPrefix.cardToken)
        let now = context.nowMilliseconds
        try context.database.transaction { connection in
            try connection.execute(
                "INSERT INTO card_tokens (id, project_id, livemode, details, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(id), .text(caller.projectId), .integer(caller.livemode ? 1 : 0),
                    .text(method.stored.serializedString), .integer(now),
                ])
        }
        let card = method.stored["card"] ?? [:]
        let brand = card["brand"]?.stringValue ?? "unknown"
        return [
            "id": .string(id), "object": "token", "type": "card", "livemode": .bool(caller.livemode),
            "created": .integer(now / 1000), "used": false,
            "card": [
                "id": .string("card_" + id.dropFirst(IdPrefix.cardToken.count + 1)), "object": "card",
                "brand": .string(brand == "amex" ? "American Express" : brand.capitalized),
                "last4": card["last4"] ?? "",
                "exp_month": card["exp_month"] ?? 0, "exp_year": card["exp_year"] ?? 0, "funding": "credit",
                "tokenization_method": applePay ? "apple_pay" : .null,
            ],
        ]
    }

    /// The card an Apple Pay payment stands for in the sandbox.
    private func applePayCard(_ fields: RequestFields) throws -> TestPaymentMethod {
        let transaction = try fields.optional("pk_token_transaction_id", maxLength: 256) ?? ""
        let parts = transaction.split(separator: "~", omittingEmptySubsequences: false)
        let number = parts.count > 1 && parts[0] == "ApplePayStubs" ? String(parts[1]) : "4242424242424242"
        let card = RequestFields(
            ["number": .string(number), "exp_month": "12", "exp_year": "2034"], invalidCode: "parameter_invalid",
            missingCode: "parameter_missing")
        return try PaymentMethodRoutes.card(card, wallet: "apple_pay")
    }

    /// Spends token `id` of the caller's project and mode on one payment method and returns its card.
    func redeem(_ id: String, caller: StripeCaller) throws -> TestPaymentMethod {
        let now = context.nowMilliseconds
        return try context.database.transaction { connection in
            guard
                let row = try connection.query(
                    "SELECT details FROM card_tokens WHERE id = ? AND project_id = ? AND livemode = ? AND created_at > ?",
                    [
                        .text(id), .text(caller.projectId), .integer(caller.livemode ? 1 : 0),
                        .integer(now - Self.lifetimeMilliseconds),
                    ]
                ).first
            else { throw StripeErrors.missing("token: \(id)", param: "card[token]") }
            guard
                try connection.execute(
                    "UPDATE card_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL", [.integer(now), .text(id)])
                    == 1
            else {
                throw StripeErrors.invalid(
                    "token_already_used", "You cannot use a Stripe token more than once.", param: "card[token]")
            }
            return try TestPaymentMethod(stored: try JSONParser().parse(Array(try row.string("details").utf8)))
        }
    }
}

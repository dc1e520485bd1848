import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// `POST /v1/tokens`: single-use card tokens, the first step of Apple Pay in stripe-ios
/// (`StripeApplePay/…/PaymentsCore/API/Token+API.swift`: `pk_token`, `pk_token_instrument_name`,
/// `pk_token_payment_network`, `pk_token_transaction_id`, `card[name]`, `card[address_*]`), or of a test card
/// (`card[number]`, `card[exp_month]`, `card[exp_year]`), as ``CardTokenCreation`` decodes them. A token
/// makes one payment method and lasts ten minutes (``PaymentMethodService``).
struct CardTokenRoutes: Sendable {
    let routes: StripeRoutes
    let service: PaymentMethodService

    init(routes: StripeRoutes) {
        self.routes = routes
        service = PaymentMethodService(context: routes.context)
    }

    func createToken(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let creation = try CardTokenCreation(RequestFields.stripe(body), livemode: caller.livemode)
        let token = try service.createToken(creation, caller: caller)
        return Self.tokenJSON(token, applePay: creation.applePay, livemode: caller.livemode)
    }

    /// The `token` object.
    static func tokenJSON(_ token: PaymentMethodService.Created, applePay: Bool, livemode: Bool) -> JSONValue {
        let (id, method, now) = (token.id, token.method, token.created)
        let brand = method.card?.brand ?? "unknown"
        return [
            "id": .string(id), "object": "token", "type": "card", "livemode": .bool(livemode),
            "created": .integer(now / 1000), "used": false,
            "card": [
                "id": .string("card_" + id.dropFirst(IdPrefix.cardToken.count + 1)), "object": "card",
                "brand": .string(brand == "amex" ? "American Express" : brand.capitalized),
                "last4": .string(method.card?.last4 ?? ""), "exp_month": .integer(method.card?.expMonth ?? 0),
                "exp_year": .integer(method.card?.expYear ?? 0), "funding": "credit",
                "tokenization_method": applePay ? "apple_pay" : .null,
            ],
        ]
    }
}

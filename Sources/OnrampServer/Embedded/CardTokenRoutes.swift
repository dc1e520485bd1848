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
        return Self.token(token, applePay: creation.applePay, livemode: caller.livemode).json
    }

    /// The `token` object.
    static func token(_ token: PaymentMethodService.Created, applePay: Bool, livemode: Bool) -> StripeCardToken {
        let card = token.method.card
        let brand = card?.brand ?? "unknown"
        return StripeCardToken(
            id: token.id, livemode: livemode, created: token.created / 1000,
            card: .init(
                id: "card_" + token.id.dropFirst(IdPrefix.cardToken.count + 1),
                brand: brand == "amex" ? "American Express" : brand.capitalized, last4: card?.last4 ?? "",
                expMonth: card?.expMonth ?? 0, expYear: card?.expYear ?? 0, funding: "credit",
                tokenizationMethod: applePay ? "apple_pay" : nil))
    }
}

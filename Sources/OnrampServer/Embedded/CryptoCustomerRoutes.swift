import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The partner-backend customer routes (secret key + `Stripe-OAuth-Token`): the customer with its
/// KYC tiers (`kyc.status:read`), its wallets and payment tokens (`crypto:ramp`).
struct CryptoCustomerRoutes: Sendable {
    let routes: StripeRoutes
    let sessions: OnrampSessionService
    var context: ServerContext { routes.context }
    private var tokens: OAuthTokens { OAuthTokens(context: context) }
    private var customers: CryptoCustomerService { CryptoCustomerService(context: context) }

    func retrieveCryptoCustomer(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let grant = try tokens.require(request, caller: caller, scope: .kycStatusRead)
        return try sessions.ownedCustomer(request.pathParameters["id"] ?? "", grant: grant).wire.json
    }

    func listCryptoConsumerWallets(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
        let customer = try sessions.ownedCustomer(request.pathParameters["id"] ?? "", grant: grant)
        let (wallets, limit) = try page(request) {
            try customers.wallets(of: customer.id, startingAfter: $0, limit: $1)
        }
        return StripeList(
            url: "/v1/crypto/customers/\(customer.id)/crypto_consumer_wallets", limit: limit,
            fetched: wallets.map(\.json)
        ).json
    }

    func listCryptoPaymentTokens(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
        let customer = try sessions.ownedCustomer(request.pathParameters["id"] ?? "", grant: grant)
        let (tokens, limit) = try page(request) {
            try customers.paymentTokens(of: customer.id, startingAfter: $0, limit: $1)
        }
        return StripeList(
            url: "/v1/crypto/customers/\(customer.id)/payment_tokens", limit: limit,
            fetched: tokens
        ).json
    }

    /// One page of a customer's list as `read` reads it (after the one named by `starting_after`, up to
    /// `limit` + 1, so the caller can tell whether more exist), and the `limit` asked for.
    private func page<Item>(
        _ request: HTTPRequest, read: (_ startingAfter: String?, _ limit: Int) throws -> [Item]?
    ) throws -> (items: [Item], limit: Int) {
        let limit = try StripeListLimit.read(request.queryValue("limit"), default: 100)
        let cursor = request.queryValue("starting_after")
        let items = try read(cursor, limit + 1)
        guard let items else { throw StripeErrors.missing("object: \(cursor ?? "")", param: "starting_after") }
        return (items, limit)
    }
}

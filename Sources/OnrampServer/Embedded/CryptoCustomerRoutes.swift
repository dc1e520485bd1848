import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// The partner-backend customer routes (secret key + `Stripe-OAuth-Token`): the customer with its
/// KYC tiers (`kyc.status:read`), its wallets and payment tokens (`crypto:ramp`).
struct CryptoCustomerRoutes: Sendable {
    let routes: StripeRoutes
    let sessions: OnrampSessionService
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        let tokens = OAuthTokens(context: context)
        routes.server(&router, "GET", "/v1/crypto/customers/{id}", Operations.retrieveCryptoCustomer) {
            request, caller, _ in
            let grant = try tokens.require(request, caller: caller, scope: "kyc.status:read")
            return try sessions.ownedCustomer(request.pathParameters["id"] ?? "", grant: grant).json
        }
        routes.server(
            &router, "GET", "/v1/crypto/customers/{id}/crypto_consumer_wallets", Operations.listCryptoConsumerWallets
        ) { request, caller, _ in
            let grant = try tokens.require(request, caller: caller, scope: "crypto:ramp")
            let customer = try sessions.ownedCustomer(request.pathParameters["id"] ?? "", grant: grant)
            let (rows, limit) = try page(.wallets, customerId: customer.id, request: request)
            return StripeList.object(
                url: "/v1/crypto/customers/\(customer.id)/crypto_consumer_wallets", limit: limit,
                try rows.map {
                    CryptoInternalRoutes.walletJSON(
                        id: try $0.string("id"), network: try $0.string("network"),
                        address: try $0.string("wallet_address"), livemode: try $0.int("livemode") != 0,
                        verifiedOwnership: try $0.int("verified_ownership") != 0)
                })
        }
        routes.server(
            &router, "GET", "/v1/crypto/customers/{id}/payment_tokens", Operations.listCryptoPaymentTokens
        ) { request, caller, _ in
            let grant = try tokens.require(request, caller: caller, scope: "crypto:ramp")
            let customer = try sessions.ownedCustomer(request.pathParameters["id"] ?? "", grant: grant)
            let (rows, limit) = try page(.paymentTokens, customerId: customer.id, request: request)
            return StripeList.object(
                url: "/v1/crypto/customers/\(customer.id)/payment_tokens", limit: limit,
                try rows.map {
                    try TestPaymentMethod(stored: try JSONParser().parse(Array(try $0.string("details").utf8)))
                        .tokenJSON(id: try $0.string("id"))
                })
        }
    }

    /// The customer's `items`, newest first, after the one named by `starting_after` when given: up to
    /// `limit` + 1 of them, so the caller can tell whether more exist.
    private func page(_ items: CryptoCustomer.Items, customerId: String, request: HTTPRequest) throws
        -> (rows: [Row], limit: Int)
    {
        let limit = try StripeList.limit(request.queryValue("limit"), default: 100)
        let cursor = request.queryValue("starting_after")
        let rows = try context.database.read { connection in
            try CryptoCustomer.page(
                of: items, of: customerId, startingAfter: cursor, limit: limit + 1, on: connection)
        }
        guard let rows else { throw StripeErrors.missing("object: \(cursor ?? "")", param: "starting_after") }
        return (rows, limit)
    }
}

import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// The partner-backend session routes (secret key + `Stripe-OAuth-Token` with `crypto:ramp`):
/// create, retrieve, list, quote and checkout.
struct OnrampSessionRoutes: Sendable {
    let routes: StripeRoutes
    let sessions: OnrampSessionService
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        let tokens = OAuthTokens(context: context)
        routes.server(&router, "POST", "/v1/crypto/onramp_sessions", Operations.createOnrampSession) {
            request, caller, body in
            let creation = try OnrampSessionCreation(body)
            let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
            return try sessions.create(creation, caller: caller, grant: grant).json
        }
        routes.server(&router, "GET", "/v1/crypto/onramp_sessions/{id}", Operations.retrieveOnrampSession) {
            request, caller, _ in
            guard let record = try sessions.session(id: request.pathParameters["id"] ?? "", caller: caller) else {
                throw StripeErrors.missing("crypto_onramp_session")
            }
            return record.json
        }
        routes.server(&router, "GET", "/v1/crypto/onramp_sessions", Operations.listOnrampSessions) {
            request, caller, _ in
            try list(request, caller: caller)
        }
        routes.server(
            &router, "POST", "/v1/crypto/onramp_sessions/{id}/quote", Operations.refreshOnrampSessionQuote
        ) { request, caller, _ in
            let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
            return try sessions.refreshQuote(id: request.pathParameters["id"] ?? "", caller: caller, grant: grant).json
        }
        routes.server(
            &router, "POST", "/v1/crypto/onramp_sessions/{id}/checkout", Operations.checkoutOnrampSession
        ) { request, caller, body in
            let checkout = try OnrampSessionCheckout(body)
            let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
            return try sessions.checkout(checkout, id: request.pathParameters["id"] ?? "", caller: caller, grant: grant)
                .json
        }
    }

    /// One page of the caller's sessions as `query` asks for it.
    func list(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        let query = try OnrampSessionListQuery(request)
        guard let (records, hasMore) = try sessions.list(query, caller: caller) else {
            let param = if case .newerThan = query.anchor { "ending_before" } else { "starting_after" }
            throw StripeErrors.missing("crypto_onramp_session", param: param)
        }
        return [
            "object": "list", "url": "/v1/crypto/onramp_sessions", "has_more": .bool(hasMore),
            "data": .array(records.map(\.json)),
        ]
    }
}

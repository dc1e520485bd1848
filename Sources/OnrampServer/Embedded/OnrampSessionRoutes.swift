import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The partner-backend session routes (secret key + `Stripe-OAuth-Token` with `crypto:ramp`):
/// create, retrieve, list, quote and checkout.
struct OnrampSessionRoutes: Sendable {
    let routes: StripeRoutes
    let sessions: OnrampSessionService
    var context: ServerContext { routes.context }
    private var tokens: OAuthTokens { OAuthTokens(context: context) }

    func createOnrampSession(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let creation = try OnrampSessionCreation(body)
        let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
        let created = try sessions.create(creation, caller: caller, grant: grant)
        RequestNotes.current?.noteSubject(created.id)
        return created.json
    }

    func retrieveOnrampSession(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        RequestNotes.current?.noteSubject(request.pathParameters["id"] ?? "")
        guard let record = try sessions.session(id: request.pathParameters["id"] ?? "", caller: caller) else {
            throw StripeErrors.missing("crypto_onramp_session")
        }
        return record.json
    }

    func listOnrampSessions(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        try list(request, caller: caller)
    }

    func refreshOnrampSessionQuote(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
        RequestNotes.current?.noteSubject(request.pathParameters["id"] ?? "")
        return try sessions.refreshQuote(id: request.pathParameters["id"] ?? "", caller: caller, grant: grant).json
    }

    func checkoutOnrampSession(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        RequestNotes.current?.noteSubject(request.pathParameters["id"] ?? "")
        let checkout = try OnrampSessionCheckout(body)
        let grant = try tokens.require(request, caller: caller, scope: .cryptoRamp)
        return try sessions.checkout(checkout, id: request.pathParameters["id"] ?? "", caller: caller, grant: grant)
            .json
    }

    /// One page of the caller's sessions as `query` asks for it.
    func list(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        let query = try OnrampSessionListQuery(query: request.queryValue)
        guard let (records, hasMore) = try sessions.list(query, caller: caller) else {
            let param = if case .newerThan = query.anchor { "ending_before" } else { "starting_after" }
            throw StripeErrors.missing("crypto_onramp_session", param: param)
        }
        return StripeList(url: "/v1/crypto/onramp_sessions", hasMore: hasMore, data: records.map(\.wire)).json
    }
}

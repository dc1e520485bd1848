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
            guard
                let record = try context.database.read({
                    try OnrampSessionRecord.find(
                        $0, id: request.pathParameters["id"] ?? "", projectId: caller.projectId,
                        livemode: caller.livemode)
                })
            else { throw StripeErrors.missing("crypto_onramp_session") }
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

    /// Newest first; filters `status`, `destination_currency`, `destination_network`, `created[gte|lte|gt|lt]`;
    /// cursor pagination with `limit` (1–100), `starting_after` and `ending_before`.
    func list(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        var filter = OnrampSessionListing.Filter(
            status: request.queryValue("status"), destinationCurrency: request.queryValue("destination_currency"),
            destinationNetwork: request.queryValue("destination_network"))
        // Stripe's `created` is in seconds (bounded, so the milliseconds stored cannot overflow).
        func seconds(_ parameter: String) throws(HTTPError) -> Int64? {
            guard let value = request.queryValue(parameter) else { return nil }
            guard let seconds = Int64(value), (0...100_000_000_000).contains(seconds) else {
                throw StripeErrors.invalid(
                    "parameter_invalid_integer", "\(parameter) must be a Unix time in seconds.", param: "created")
            }
            return seconds
        }
        if let seconds = try seconds("created[gte]") { filter.created(from: seconds * 1000) }
        if let seconds = try seconds("created[gt]") { filter.created(from: (seconds + 1) * 1000) }
        if let seconds = try seconds("created[lte]") { filter.created(before: (seconds + 1) * 1000) }
        if let seconds = try seconds("created[lt]") { filter.created(before: seconds * 1000) }
        if let seconds = try seconds("created") {
            filter.created(from: seconds * 1000)
            filter.created(before: (seconds + 1) * 1000)
        }
        let limit = try StripeList.limit(request.queryValue("limit"))
        let anchor: OnrampSessionListing.Anchor =
            if let after = request.queryValue("starting_after") {
                .olderThan(after)
            } else if let before = request.queryValue("ending_before") {
                .newerThan(before)
            } else {
                .newest
            }
        guard
            let (records, hasMore) = try context.database.read({ connection in
                try OnrampSessionListing(connection: connection, projectId: caller.projectId, livemode: caller.livemode)
                    .page(filter, from: anchor, limit: limit)
            })
        else {
            let param = if case .newerThan = anchor { "ending_before" } else { "starting_after" }
            throw StripeErrors.missing("crypto_onramp_session", param: param)
        }
        return [
            "object": "list", "url": "/v1/crypto/onramp_sessions", "has_more": .bool(hasMore),
            "data": .array(records.map(\.json)),
        ]
    }
}

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
            let grant = try tokens.require(request, caller: caller, scope: "crypto:ramp")
            return try sessions.create(caller: caller, grant: grant, body: body).json
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
            let grant = try tokens.require(request, caller: caller, scope: "crypto:ramp")
            return try sessions.refreshQuote(id: request.pathParameters["id"] ?? "", caller: caller, grant: grant).json
        }
        routes.server(
            &router, "POST", "/v1/crypto/onramp_sessions/{id}/checkout", Operations.checkoutOnrampSession
        ) { request, caller, body in
            let grant = try tokens.require(request, caller: caller, scope: "crypto:ramp")
            return try sessions.checkout(
                id: request.pathParameters["id"] ?? "", caller: caller, grant: grant, body: body
            ).json
        }
    }

    /// Newest first; filters `status`, `destination_currency`, `destination_network`, `created[gte|lte|gt|lt]`;
    /// cursor pagination with `limit` (1–100), `starting_after` and `ending_before`.
    func list(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        var sql = "SELECT * FROM crypto_onramp_sessions WHERE project_id = ? AND livemode = ?"
        var parameters: [SQLValue] = [.text(caller.projectId), .integer(caller.livemode ? 1 : 0)]
        for (name, column) in [
            ("status", "status"), ("destination_currency", "destination_currency"),
            ("destination_network", "destination_network"),
        ] {
            if let value = request.queryValue(name) {
                sql += " AND \(column) = ?"
                parameters.append(.text(value))
            }
        }
        // Stripe's `created` is in seconds (bounded, so the milliseconds stored cannot overflow).
        func seconds(_ parameter: String) throws(HTTPError) -> Int64? {
            guard let value = request.queryValue(parameter) else { return nil }
            guard let seconds = Int64(value), (0...100_000_000_000).contains(seconds) else {
                throw StripeErrors.invalid(
                    "parameter_invalid_integer", "\(parameter) must be a Unix time in seconds.", param: "created")
            }
            return seconds
        }
        for (name, comparison, offset) in [("gte", ">=", 0), ("gt", ">=", 1), ("lte", "<", 1), ("lt", "<", 0)] {
            if let seconds = try seconds("created[\(name)]") {
                sql += " AND created_at \(comparison) ?"
                parameters.append(.integer((seconds + Int64(offset)) * 1000))
            }
        }
        if let seconds = try seconds("created") {
            sql += " AND created_at >= ? AND created_at <= ?"
            parameters += [.integer(seconds * 1000), .integer(seconds * 1000 + 999)]
        }
        let limit = try StripeList.limit(request.queryValue("limit"))
        var ascending = false
        if let cursor = request.queryValue("starting_after") ?? request.queryValue("ending_before") {
            ascending = request.queryValue("starting_after") == nil
            guard
                let anchor = try context.database.read({
                    try OnrampSessionRecord.find($0, id: cursor, projectId: caller.projectId, livemode: caller.livemode)
                })
            else {
                throw StripeErrors.missing(
                    "crypto_onramp_session", param: ascending ? "ending_before" : "starting_after")
            }
            sql +=
                ascending
                ? " AND (created_at > ? OR (created_at = ? AND id > ?))"
                : " AND (created_at < ? OR (created_at = ? AND id < ?))"
            parameters += [.integer(anchor.createdAt), .integer(anchor.createdAt), .text(anchor.id)]
        }
        sql += ascending ? " ORDER BY created_at ASC, id ASC LIMIT ?" : " ORDER BY created_at DESC, id DESC LIMIT ?"
        parameters.append(.integer(Int64(limit + 1)))
        var records = try context.database.read { try $0.query(sql, parameters).map(OnrampSessionRecord.init(row:)) }
        let hasMore = records.count > limit
        records = Array(records.prefix(limit))
        if ascending { records.reverse() }
        return [
            "object": "list", "url": "/v1/crypto/onramp_sessions", "has_more": .bool(hasMore),
            "data": .array(records.map(\.json)),
        ]
    }
}

import HTTPServer
import OnrampStore

/// Stripe's `GET /v1/events` (newest first, `type` filter, `starting_after`/`limit` cursor) and
/// `GET /v1/events/{id}` over the project's Stripe-family outbox events. The stored payload is the
/// full event object, so it is returned byte for byte as stored and as delivered.
struct EventRoutes: Sendable {
    let context: ServerContext

    func register(on router: inout Router) {
        router.add("GET", "/v1/events", Operations.listEvents) { request in
            let caller = try StripeCaller.authenticate(request, database: context.database, allowPublishable: false)
            let limit = try StripeList.limit(request.queryValue("limit"))
            var sql = "SELECT payload FROM outbox_events WHERE project_id = ? AND family = 'stripe' AND livemode = ?"
            var parameters: [SQLValue] = [.text(caller.projectId), .integer(caller.livemode ? 1 : 0)]
            if let type = request.queryValue("type") {
                if type.hasSuffix(".*") {
                    sql += " AND type LIKE ?"
                    parameters.append(.text(String(type.dropLast()) + "%"))
                } else {
                    sql += " AND type = ?"
                    parameters.append(.text(type))
                }
            }
            if let after = request.queryValue("starting_after") {
                sql += """
                     AND (created_at < (SELECT created_at FROM outbox_events WHERE id = ?)
                      OR (created_at = (SELECT created_at FROM outbox_events WHERE id = ?) AND id < ?))
                    """
                parameters += [.text(after), .text(after), .text(after)]
            }
            sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
            let payloads = try context.database.read {
                try $0.query(sql, parameters + [.integer(Int64(limit + 1))]).map { try $0.string("payload") }
            }
            var body = Array(#"{"object":"list","data":["#.utf8)
            for (index, payload) in payloads.prefix(limit).enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Array(payload.utf8)
            }
            body += Array(#"],"has_more":\#(payloads.count > limit),"url":"/v1/events"}"#.utf8)
            return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        }
        router.add("GET", "/v1/events/{id}", Operations.getEvent) { request in
            let caller = try StripeCaller.authenticate(request, database: context.database, allowPublishable: false)
            let id = request.pathParameters["id"] ?? ""
            guard
                let payload = try context.database.read({
                    try $0.query(
                        """
                        SELECT payload FROM outbox_events
                        WHERE id = ? AND project_id = ? AND family = 'stripe' AND livemode = ?
                        """,
                        [.text(id), .text(caller.projectId), .integer(caller.livemode ? 1 : 0)]
                    ).first?.string("payload")
                })
            else {
                throw HTTPError(status: 404, code: "resource_missing", message: "No such event: '\(id)'", param: "id")
            }
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(payload.utf8))
        }
    }
}

import HTTPServer
import OnrampCore
import OnrampServices

/// Stripe's `GET /v1/events` (newest first, `type` filter, `starting_after`/`limit` cursor) and
/// `GET /v1/events/{id}` over the project's Stripe-family outbox events. The stored payload is the
/// full event object, so it is returned byte for byte as stored and as delivered.
struct EventRoutes: Sendable {
    let context: ServerContext
    private var events: StripeEventService { StripeEventService(database: context.database) }

    func listEvents(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try StripeCaller.authenticate(request, context: context, allowPublishable: false)
        let limit = try StripeListLimit.read(request.queryValue("limit"))
        let payloads = try events.payloads(
            caller: caller, type: request.queryValue("type"), startingAfter: request.queryValue("starting_after"),
            limit: limit + 1)
        var body = Array(#"{"object":"list","data":["#.utf8)
        for (index, payload) in payloads.prefix(limit).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Array(payload.utf8)
        }
        body += Array(#"],"has_more":\#(payloads.count > limit),"url":"/v1/events"}"#.utf8)
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    }

    func getEvent(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try StripeCaller.authenticate(request, context: context, allowPublishable: false)
        let id = request.pathParameters["id"] ?? ""
        guard let payload = try events.payload(id: id, caller: caller) else {
            throw OnrampError.refusal("resource_missing", "No such event: '\(id)'", parameter: "id", kind: .notFound)
        }
        return HTTPResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(payload.utf8))
    }
}

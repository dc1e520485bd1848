import HTTPServer
import OnrampServices
import OnrampWire

/// The CDP subscriptions API under `/platform/v2/data/webhooks/subscriptions`, authenticated with a
/// CDP API key JWT: create, list, retrieve, replace, delete, and the per-subscription event listing.
/// Fields it does not know are ignored, as in the rest of the CDP family.
struct WebhookSubscriptionRoutes: Sendable {
    static let basePath = "/platform/v2/data/webhooks/subscriptions"

    let service: WebhookSubscriptionService
    let authenticator: CDPAuthenticator

    func createSubscription(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let change = try WebhookSubscriptionChange(
            cdpBody: try request.jsonBody(), creating: true, targets: service.targets)
        let subscription = try service.create(change, projectId: projectId, family: .cdp, livemode: false)
        return Operations.createSubscription.success(subscription.cdpSubscription.json)
    }

    func listSubscriptions(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let limit = try Self.pageSize(request.queryValue("pageSize"))
        let page = try service.list(
            projectId: projectId, family: .cdp, livemode: nil, limit: limit + 1,
            startingAfter: request.queryValue("pageToken"))
        let shown = page.prefix(limit)
        return .json(
            CDPWebhookSubscriptionList(
                subscriptions: shown.map(\.cdpSubscription), nextPageToken: page.count > limit ? shown.last?.id : nil
            ).json)
    }

    func getSubscription(_ request: HTTPRequest) throws -> HTTPResponse {
        let projectId = try authenticator.authenticate(request)
        return .json(
            try service.find(id: id(request), projectId: projectId, family: .cdp, livemode: nil).cdpSubscription.json)
    }

    func updateSubscription(_ request: HTTPRequest) throws -> HTTPResponse {
        let projectId = try authenticator.authenticate(request)
        let id = id(request)
        _ = try service.find(id: id, projectId: projectId, family: .cdp, livemode: nil)
        let change = try WebhookSubscriptionChange(
            cdpBody: try request.jsonBody(), creating: false, targets: service.targets)
        return .json(
            try service.update(id: id, projectId: projectId, family: .cdp, livemode: nil, change).cdpSubscription.json)
    }

    func deleteSubscription(_ request: HTTPRequest) throws -> HTTPResponse {
        let projectId = try authenticator.authenticate(request)
        _ = try service.delete(id: id(request), projectId: projectId, family: .cdp, livemode: nil)
        return HTTPResponse(status: Operations.deleteSubscription.successStatus)
    }

    func listSubscriptionEvents(_ request: HTTPRequest) throws -> HTTPResponse {
        let projectId = try authenticator.authenticate(request)
        let subscription = try service.find(id: id(request), projectId: projectId, family: .cdp, livemode: nil)
        // "Results are limited to the 50 most recent events" (cdp-sdk 1.51.0).
        let limit = min(50, try Self.pageSize(request.queryValue("pageSize")))
        let filter = WebhookDeliveryRepository.Filter(
            eventId: request.queryValue("eventId"), minCreatedAt: try Self.time(request, "minCreatedAt"),
            maxCreatedAt: try Self.time(request, "maxCreatedAt"),
            eventTypes: request.queryValue("eventTypeNames")?.split(separator: ",").map {
                String($0).trimmingCharacters(in: .whitespaces)
            } ?? [])
        return .json(
            CDPWebhookEventList(
                events: try service.deliveries(of: subscription, filter: filter, limit: limit).map(\.cdpEvent)
            ).json)
    }

    /// A time filter in RFC 3339 (`Z`, `+00:00`, or `+0000` as cdp-sdk formats it), in stored milliseconds.
    private static func time(_ request: HTTPRequest, _ name: String) throws(FieldError) -> Int64? {
        guard let text = request.queryValue(name) else { return nil }
        var normalized = text
        // `+0000` → `+00:00`.
        if let sign = text.utf8.count >= 5 ? text.dropLast(4).last : nil, sign == "+" || sign == "-",
            text.suffix(4).allSatisfy({ $0.isASCII && $0.isNumber })
        {
            normalized = String(text.dropLast(2)) + ":" + text.suffix(2)
        }
        guard let parsed = Timestamp.parseRFC3339(normalized), !parsed.dateOnly else {
            throw FieldError(
                code: "invalid_request", message: "\(name) is an RFC 3339 date-time.", param: name)
        }
        return parsed.milliseconds
    }

    private func id(_ request: HTTPRequest) -> String { request.pathParameters["subscriptionId"] ?? "" }

    static func pageSize(_ text: String?) throws(FieldError) -> Int {
        guard let text else { return 20 }
        guard let size = Int(text), (1...100).contains(size) else {
            throw FieldError(code: "invalid_request", message: "pageSize must be between 1 and 100.")
        }
        return size
    }
}

import HTTPServer
import OnrampStore
import OnrampWire

/// The CDP subscriptions API under `/platform/v2/data/webhooks/subscriptions`, authenticated with a
/// CDP API key JWT: create, list, retrieve, replace, delete, and the per-subscription event listing.
/// Fields it does not know are ignored, as in the rest of the CDP family.
struct WebhookSubscriptionRoutes: Sendable {
    static let basePath = "/platform/v2/data/webhooks/subscriptions"

    let context: ServerContext
    let authenticator: CDPAuthenticator

    func register(on router: inout Router) {
        router.add("POST", Self.basePath, Operations.createSubscription) { request in
            try authenticator.acting(for: request) { projectId in
                let fields = RequestFields(try request.jsonBody())
                let now = context.nowMilliseconds
                var subscription = WebhookSubscription(
                    id: context.ids.uuid(), projectId: projectId, family: .cdp, url: "", description: "",
                    eventTypes: [],
                    headers: [], metadata: .object([]), labels: .object([]), secret: context.ids.uuid(), enabled: true,
                    disabledReason: nil, failingSince: nil, livemode: false, createdAt: now)
                try apply(fields, to: &subscription, creating: true)
                try context.database.transaction {
                    try WebhookSubscriptionRepository(connection: $0).insert(
                        subscription, now: now, invalidCode: "invalid_request", dialect: context.database.dialect)
                }
                return .json(Self.json(subscription), status: 201)
            }
        }
        router.add("GET", Self.basePath, Operations.listSubscriptions) { request in
            try authenticator.acting(for: request) { projectId in
                let limit = try Self.pageSize(request.queryValue("pageSize"))
                let after = request.queryValue("pageToken")
                let page = try context.database.read {
                    try WebhookSubscriptionRepository(connection: $0).list(
                        projectId: projectId, family: .cdp, limit: limit + 1, startingAfter: after)
                }
                var members: [(String, JSONValue)] = [("subscriptions", .array(page.prefix(limit).map(Self.json)))]
                if page.count > limit, let last = page.prefix(limit).last {
                    members.append(("nextPageToken", .string(last.id)))
                }
                return .json(.object(members))
            }
        }
        router.add("GET", Self.basePath + "/{subscriptionId}", Operations.getSubscription) { request in
            let (_, subscription) = try find(request)
            return .json(Self.json(subscription))
        }
        router.add("PUT", Self.basePath + "/{subscriptionId}", Operations.updateSubscription) { request in
            var (_, subscription) = try find(request)
            let fields = RequestFields(try request.jsonBody())
            try apply(fields, to: &subscription, creating: false)
            let now = context.nowMilliseconds
            try context.database.transaction {
                try WebhookSubscriptionRepository(connection: $0).update(subscription, now: now)
            }
            if subscription.enabled { subscription.disabledReason = nil }
            return .json(Self.json(subscription))
        }
        router.add("DELETE", Self.basePath + "/{subscriptionId}", Operations.deleteSubscription) { request in
            let (projectId, subscription) = try find(request)
            try context.database.transaction {
                _ = try WebhookSubscriptionRepository(connection: $0).delete(
                    id: subscription.id, projectId: projectId, family: .cdp)
            }
            return HTTPResponse(status: 204)
        }
        router.add("GET", Self.basePath + "/{subscriptionId}/events", Operations.listSubscriptionEvents) { request in
            let (_, subscription) = try find(request)
            let limit = try Self.pageSize(request.queryValue("pageSize"))
            let deliveries = try context.database.read {
                try WebhookDeliveryRepository(connection: $0).list(subscriptionId: subscription.id, limit: limit)
            }
            return .json(["events": .array(deliveries.map(\.cdpJSON))])
        }
    }

    private func find(_ request: HTTPRequest) throws -> (String, WebhookSubscription) {
        let projectId = try authenticator.authenticate(request)
        let id = request.pathParameters["subscriptionId"] ?? ""
        guard
            let subscription = try context.database.read({
                try WebhookSubscriptionRepository(connection: $0).find(id: id, projectId: projectId, family: .cdp)
            })
        else {
            throw HTTPError(status: 404, code: "not_found", message: "No subscription \(id).")
        }
        return (projectId, subscription)
    }

    private func apply(_ fields: RequestFields, to subscription: inout WebhookSubscription, creating: Bool)
        throws(HTTPError)
    {
        if let description = try fields.optional("description", maxLength: 500, multiline: true) {
            subscription.description = description
        }
        if let types = try fields.optionalList("eventTypes", maxCount: 50, maxLength: 100) {
            guard !types.isEmpty, types.allSatisfy({ !$0.isEmpty }) else {
                throw fields.invalid("eventTypes", "eventTypes must list at least one event type.")
            }
            subscription.eventTypes = types
        } else if creating {
            throw fields.invalid("eventTypes", "Missing required field eventTypes.")
        }
        if let target = try fields.object("target") {
            let url = try target.required("url", maxLength: 2048)
            subscription.url = try WebhookTargetURL.validate(url, param: "target.url", code: "invalid_request")
            if let headers = target.body["headers"], !headers.isNull {
                guard let members = headers.objectValue, members.count <= 20,
                    members.allSatisfy({ Self.isAllowedHeader($0.0, value: $0.1.stringValue) })
                else {
                    throw fields.invalid(
                        "target.headers",
                        "target.headers must map at most 20 header names to values of at most 1024 visible characters, and may not set the signed or framing headers."
                    )
                }
                subscription.headers = members.map { ($0.0, $0.1.stringValue!) }
            }
        } else if creating {
            throw fields.invalid("target", "Missing required field target.")
        }
        if let enabled = try fields.optionalBool("isEnabled") { subscription.enabled = enabled }
        if let metadata = try fields.optionalStringMap("metadata") { subscription.metadata = metadata }
        if let labels = try fields.optionalStringMap("labels") { subscription.labels = labels }
        // The older body (Coinbase's first webhook docs) names one label as labelKey and labelValue.
        if let key = try fields.optional("labelKey", maxLength: 40) {
            guard !key.isEmpty, let value = try fields.optional("labelValue", maxLength: 500) else {
                throw fields.invalid("labelValue", "labelKey needs a labelValue.")
            }
            let others = (subscription.labels.objectValue ?? []).filter { $0.0 != key }
            guard others.count < 50 else { throw fields.invalid("labelKey", "labels may hold at most 50 keys.") }
            subscription.labels = .object(others + [(key, .string(value))])
        }
    }

    /// A custom header: an HTTP token of at most 64 characters as its name, visible ASCII (and spaces)
    /// as its value, so nothing can be smuggled into the request; and not one the signature covers or
    /// that frames the request.
    private static func isAllowedHeader(_ name: String, value: String?) -> Bool {
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
        guard let value, (1...64).contains(name.utf8.count), value.utf8.count <= 1024,
            name.utf8.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || tokenPunctuation.contains($0)
            }),
            value.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 })
        else { return false }
        return ![
            "content-type", "x-event-id", "x-event-type", "x-hook0-signature", "host", "content-length",
            "transfer-encoding", "connection", "user-agent", "expect", "te", "trailer", "upgrade", "keep-alive",
            "content-encoding", "proxy-authorization", "proxy-connection",
        ].contains(name.lowercased())
    }

    static func pageSize(_ text: String?) throws(HTTPError) -> Int {
        guard let text else { return 20 }
        guard let size = Int(text), (1...100).contains(size) else {
            throw HTTPError(status: 400, code: "invalid_request", message: "pageSize must be between 1 and 100.")
        }
        return size
    }

    static func json(_ subscription: WebhookSubscription) -> JSONValue {
        var target: [(String, JSONValue)] = [("url", .string(subscription.url))]
        if !subscription.headers.isEmpty {
            target.append(("headers", .object(subscription.headers.map { ($0, .string($1)) })))
        }
        var members: [(String, JSONValue)] = [
            ("subscriptionId", .string(subscription.id)),
            ("description", .string(subscription.description)),
            ("eventTypes", .array(subscription.eventTypes.map(JSONValue.string))),
            ("target", .object(target)),
            ("isEnabled", .bool(subscription.enabled)),
            // `metadata.secret` too: the SDK keeps it "for backward compatibility only".
            (
                "metadata",
                .object(
                    (subscription.metadata.objectValue ?? []).filter { $0.0 != "secret" } + [
                        ("secret", .string(subscription.secret))
                    ])
            ),
            ("labels", subscription.labels),
            ("createdAt", .string(Timestamp.rfc3339(milliseconds: subscription.createdAt))),
            ("secret", .string(subscription.secret)),
        ]
        if let reason = subscription.disabledReason { members.append(("disabledReason", .string(reason))) }
        return .object(members)
    }
}

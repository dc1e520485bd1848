import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// Stripe's `/v1/webhook_endpoints`: create, retrieve, update, list and delete webhook endpoints
/// (form-encoded, secret key auth). The `whsec_…` secret is shown only in the creation response.
struct WebhookEndpointRoutes: Sendable {
    static let basePath = "/v1/webhook_endpoints"

    let context: ServerContext

    func register(on router: inout Router) {
        router.add("POST", Self.basePath, Operations.createEndpoint) { request in
            let caller = try StripeCaller.authenticate(request, database: context.database, allowPublishable: false)
            let (projectId, livemode) = (caller.projectId, caller.livemode)
            let fields = Self.fields(try request.parsedBody())
            try fields.rejectUnknown(allowed: Self.allowedFields)
            let now = context.nowMilliseconds
            var endpoint = WebhookSubscription(
                id: context.ids.id(prefix: IdPrefix.webhookEndpoint), projectId: projectId, family: .stripe, url: "",
                description: "", eventTypes: [], headers: [], metadata: .object([]), labels: .object([]),
                secret: context.ids.id(prefix: IdPrefix.webhookSecret, length: 32), enabled: true, disabledReason: nil,
                failingSince: nil, livemode: livemode, createdAt: now)
            try Self.apply(fields, to: &endpoint, creating: true)
            try context.database.transaction {
                try WebhookSubscriptionRepository(connection: $0).insert(
                    endpoint, now: now, invalidCode: "parameter_invalid", dialect: context.database.dialect)
            }
            return .json(Self.json(endpoint, includeSecret: true))
        }
        router.add("GET", Self.basePath, Operations.listEndpoints) { request in
            let caller = try StripeCaller.authenticate(request, database: context.database, allowPublishable: false)
            let limit = try StripeList.limit(request.queryValue("limit"))
            let page = try context.database.read {
                try WebhookSubscriptionRepository(connection: $0).list(
                    projectId: caller.projectId, family: .stripe, limit: limit + 1,
                    startingAfter: request.queryValue("starting_after"), livemode: caller.livemode)
            }
            return .json(
                StripeList.object(
                    url: Self.basePath, limit: limit, page.map { Self.json($0, includeSecret: false) }))
        }
        router.add("GET", Self.basePath + "/{id}", Operations.getEndpoint) { request in
            .json(Self.json(try find(request).1, includeSecret: false))
        }
        router.add("POST", Self.basePath + "/{id}", Operations.updateEndpoint) { request in
            var (_, endpoint) = try find(request)
            let fields = Self.fields(try request.parsedBody())
            try fields.rejectUnknown(allowed: Self.allowedFields.union(["disabled"]))
            try Self.apply(fields, to: &endpoint, creating: false)
            if let disabled = try fields.optionalBool("disabled") { endpoint.enabled = !disabled }
            let now = context.nowMilliseconds
            try context.database.transaction {
                try WebhookSubscriptionRepository(connection: $0).update(endpoint, now: now)
            }
            return .json(Self.json(endpoint, includeSecret: false))
        }
        router.add("DELETE", Self.basePath + "/{id}", Operations.deleteEndpoint) { request in
            let (projectId, endpoint) = try find(request)
            try context.database.transaction {
                _ = try WebhookSubscriptionRepository(connection: $0).delete(
                    id: endpoint.id, projectId: projectId, family: .stripe)
            }
            return .json(["id": .string(endpoint.id), "object": "webhook_endpoint", "deleted": true])
        }
    }

    private static let allowedFields: Set<String> = [
        "url", "enabled_events", "description", "metadata", "api_version", "connect", "expand",
    ]

    private static func fields(_ body: JSONValue) -> RequestFields {
        RequestFields(body, invalidCode: "parameter_invalid", missingCode: "parameter_missing")
    }

    private func find(_ request: HTTPRequest) throws -> (String, WebhookSubscription) {
        let caller = try StripeCaller.authenticate(request, database: context.database, allowPublishable: false)
        let id = request.pathParameters["id"] ?? ""
        let projectId = caller.projectId
        guard
            let endpoint = try context.database.read({
                try WebhookSubscriptionRepository(connection: $0).find(
                    id: id, projectId: projectId, family: .stripe, livemode: caller.livemode)
            })
        else {
            throw HTTPError(
                status: 404, code: "resource_missing", message: "No such webhook endpoint: '\(id)'", param: "id")
        }
        return (projectId, endpoint)
    }

    private static func apply(_ fields: RequestFields, to endpoint: inout WebhookSubscription, creating: Bool)
        throws(HTTPError)
    {
        if let url = try fields.optional("url", maxLength: 2048) {
            endpoint.url = try WebhookTargetURL.validate(url, param: "url", code: "url_invalid")
        } else if creating {
            _ = try fields.required("url")
        }
        if let events = try fields.optionalList("enabled_events", maxCount: 100, maxLength: 100) {
            guard !events.isEmpty, events.allSatisfy({ !$0.isEmpty }) else {
                throw fields.invalid("enabled_events", "enabled_events must list at least one event type, or *.")
            }
            endpoint.eventTypes = events
        } else if creating {
            throw HTTPError(
                status: 400, code: "parameter_missing", message: "Missing required param: enabled_events.",
                param: "enabled_events")
        }
        if let description = try fields.optional("description", maxLength: 5000, multiline: true) {
            endpoint.description = description
        }
        if let metadata = try fields.optionalStringMap("metadata") { endpoint.metadata = metadata }
    }

    static func json(_ endpoint: WebhookSubscription, includeSecret: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(endpoint.id)),
            ("object", "webhook_endpoint"),
            ("api_version", .null),
            ("application", .null),
            ("created", .integer(Timestamp.unixSeconds(milliseconds: endpoint.createdAt))),
            ("description", endpoint.description.isEmpty ? .null : .string(endpoint.description)),
            ("enabled_events", .array(endpoint.eventTypes.map(JSONValue.string))),
            ("livemode", .bool(endpoint.livemode)),
            ("metadata", endpoint.metadata),
        ]
        if includeSecret { members.append(("secret", .string(endpoint.secret))) }
        members.append(("status", endpoint.enabled ? "enabled" : "disabled"))
        members.append(("url", .string(endpoint.url)))
        return .object(members)
    }
}

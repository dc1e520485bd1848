/// Stripe's `webhook_endpoint` object (stripe-node's `WebhookEndpoint`): its `whsec_…` secret appears only in
/// the answer that created it; `api_version` and `application` are always `null` here (events are rendered in
/// one version, and no Connect application owns an endpoint).
public struct StripeWebhookEndpoint: WireObject, Codable, Equatable {
    /// Whether deliveries are made.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case enabled
        case disabled
    }

    /// `we_…`.
    public var id: String
    /// Always `webhook_endpoint`.
    public var object: String
    /// The API version events are rendered in; `null`: the account's.
    public var apiVersion: String?
    /// The Connect application that owns the endpoint; `null`.
    public var application: String?
    /// Creation time, Unix seconds.
    public var created: Int64
    /// The partner's description, `null` when none was given.
    public var description: String?
    /// The event types delivered (`*`: every type).
    public var enabledEvents: [String]
    /// Whether the endpoint was created with a live key.
    public var livemode: Bool
    /// The partner's metadata, in the order given.
    public var metadata: OrderedStringMap
    /// The signing secret, only in the creation answer (left out, not `null`, elsewhere).
    public var secret: String?
    /// Whether deliveries are made.
    public var status: Status
    /// Where deliveries go.
    public var url: String

    enum CodingKeys: String, CodingKey {
        case id, object, apiVersion = "api_version", application, created, description
        case enabledEvents = "enabled_events", livemode, metadata, secret, status, url
    }

    /// An endpoint as its calls answer it; `secret` only when it was just created.
    public init(
        id: String, created: Int64, description: String?, enabledEvents: [String], livemode: Bool,
        metadata: OrderedStringMap, secret: String?, status: Status, url: String
    ) {
        self.id = id
        object = "webhook_endpoint"
        self.created = created
        self.description = description
        self.enabledEvents = enabledEvents
        self.livemode = livemode
        self.metadata = metadata
        self.secret = secret
        self.status = status
        self.url = url
    }

    /// Absent members are `null`, but for the secret, which is left out.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.nullLeavingOut(["secret"])

    /// What an endpoint always holds (the secret is required only of the creation answer; see
    /// ``schema(withSecret:)``).
    public static var schema: APISchema { schema(withSecret: false) }

    /// The endpoint's schema, with the secret required when `withSecret`.
    public static func schema(withSecret: Bool) -> APISchema {
        let jsonNull = APISchema(json: ["type": "null"])
        return .object(
            [
                "id": .string, "object": .constant("webhook_endpoint"), "api_version": jsonNull,
                "application": jsonNull, "created": .integer, "description": APISchema.string.nullable,
                "enabled_events": .array(.string), "livemode": .boolean, "metadata": .map(.string),
                "secret": .string, "status": .enumeration(Status.allCases.map(\.rawValue)), "url": .string,
            ],
            required: [
                "id", "object", "api_version", "application", "created", "description", "enabled_events",
                "livemode", "metadata", "status", "url",
            ] + (withSecret ? ["secret"] : []))
    }
}

/// A Stripe event: `{id:"evt_…", object:"event", type, created, livemode, data:{object}}`, and `api_version`
/// when the sender names one. The server writes its events with it (the outbox stores exactly this); a
/// partner's backend decodes a delivery into it with the object type it expects.
public struct StripeEvent<Object: Sendable>: Sendable {
    /// The stable event id; deduplicate on it.
    public let id: String
    /// The event type (`crypto.onramp_session.updated`).
    public let type: String
    /// Creation time, Unix seconds.
    public let created: Int64
    /// Whether the event comes from live mode.
    public let livemode: Bool
    /// The API version the object is rendered in, when the sender names one.
    public let apiVersion: String?
    /// The object the event is about (`data.object`).
    public let object: Object

    /// An event of `type` about `object`.
    public init(
        id: String, type: String, created: Int64, livemode: Bool, apiVersion: String? = nil, object: Object
    ) {
        self.id = id
        self.type = type
        self.created = created
        self.livemode = livemode
        self.apiVersion = apiVersion
        self.object = object
    }

    private enum CodingKeys: String, CodingKey {
        case id, object, apiVersion = "api_version", type, created, livemode, data
    }

    private enum DataKeys: String, CodingKey {
        case object
    }
}

extension StripeEvent: Equatable where Object: Equatable {}

extension StripeEvent: Decodable where Object: Decodable {
    /// Decodes the envelope and its `data.object`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        created = try container.decode(Int64.self, forKey: .created)
        livemode = try container.decode(Bool.self, forKey: .livemode)
        apiVersion = try container.decodeIfPresent(String.self, forKey: .apiVersion)
        object = try container.nestedContainer(keyedBy: DataKeys.self, forKey: .data).decode(
            Object.self, forKey: .object)
    }
}

extension StripeEvent {
    /// The event as written, `data.object` rendered by `render`: `id`, `object: "event"`, `api_version`
    /// (when set), `type`, `created`, `livemode`, `data`.
    public func json(rendering render: (Object) -> JSONValue) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("object", "event")]
        if let apiVersion { members.append(("api_version", .string(apiVersion))) }
        members += [
            ("type", .string(type)), ("created", .integer(created)), ("livemode", .bool(livemode)),
            ("data", ["object": render(object)]),
        ]
        return .object(members)
    }

    /// What every event holds.
    public static var schema: APISchema {
        .object(
            [
                "id": .string, "object": .constant("event"), "api_version": .string, "type": .string,
                "created": .integer, "livemode": .boolean,
                "data": .object(["object": .anyObject], required: ["object"]),
            ],
            required: ["id", "object", "type", "created", "livemode", "data"])
    }
}

extension StripeEvent: WireObject where Object: WireObject {
    /// The event with its object as the object writes itself.
    public var json: JSONValue { json(rendering: { $0.json }) }
}

extension StripeEvent where Object == JSONValue {
    /// The event with its object as given.
    public var json: JSONValue { json(rendering: { $0 }) }
}

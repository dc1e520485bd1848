/// A Stripe event envelope: `{id:"evt_…", object:"event", type, created, livemode, data:{object}}`.
public struct StripeEvent<Object: Decodable & Sendable>: Decodable, Sendable {
    /// The stable event id; deduplicate on it.
    public let id: String
    /// The event type (`crypto.onramp_session.updated`).
    public let type: String
    /// Creation time, Unix seconds.
    public let created: Int64
    /// Whether the event comes from live mode.
    public let livemode: Bool
    /// The object the event is about.
    public let object: Object

    private enum CodingKeys: String, CodingKey {
        case id, type, created, livemode, data
    }

    private enum DataKeys: String, CodingKey {
        case object
    }

    /// Decodes the envelope and its `data.object`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        created = try container.decode(Int64.self, forKey: .created)
        livemode = try container.decode(Bool.self, forKey: .livemode)
        object = try container.nestedContainer(keyedBy: DataKeys.self, forKey: .data).decode(
            Object.self, forKey: .object)
    }
}

/// The fields of an onramp session that matter to a webhook receiver.
public struct OnrampSessionObject: Decodable, Sendable, Equatable {
    /// The session id (`cos_…`).
    public let id: String
    /// The session status (`fulfillment_complete` when the crypto was delivered).
    public let status: String
    /// Whether the session is live.
    public let livemode: Bool?
}

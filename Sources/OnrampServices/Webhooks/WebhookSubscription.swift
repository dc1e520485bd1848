import OnrampStore
import OnrampWire

/// One webhook subscription: a CDP subscription (`family == .cdp`) or a Stripe webhook endpoint
/// (`family == .stripe`). Each receives the events of its project and family whose type it lists.
public struct WebhookSubscription: Sendable {
    /// `we_…` for Stripe endpoints, a UUID for CDP subscriptions.
    public var id: String
    /// The owning project.
    public var projectId: String
    /// The event family, and so the signature scheme.
    public var family: WebhookFamily
    /// The target URL.
    public var url: String
    /// A free-form description.
    public var description: String
    /// Event types delivered; `*` delivers every type.
    public var eventTypes: [String]
    /// Extra headers sent with every delivery (CDP `target.headers`).
    public var headers: [(String, String)]
    /// Partner metadata, stored as given.
    public var metadata: OrderedStringMap
    /// CDP labels, stored as given.
    public var labels: OrderedStringMap
    /// The signing secret (`whsec_…` for Stripe endpoints).
    public var secret: String
    /// Whether deliveries are made.
    public var enabled: Bool
    /// Why the server disabled the endpoint, when it did.
    public var disabledReason: String?
    /// Since when (ms) every attempt has failed, or `nil` while deliveries succeed.
    public var failingSince: Int64?
    /// Whether the endpoint was created with a live key.
    public var livemode: Bool
    /// Creation time in milliseconds.
    public var createdAt: Int64

    /// Whether an event of `type` goes to this subscription.
    public func accepts(_ type: String) -> Bool {
        eventTypes.contains("*") || eventTypes.contains(type)
    }
}

/// Which scheme an event and a subscription use.
public enum WebhookFamily: String, Sendable, CaseIterable {
    /// Coinbase CDP (`X-Hook0-Signature`).
    case cdp
    /// Stripe (`Stripe-Signature`).
    case stripe
}

extension WebhookSubscription {
    package init(row: Row) throws {
        guard let family = WebhookFamily(rawValue: try row.string("family")) else {
            throw StoreError(.typeMismatch, "unknown webhook family")
        }
        let parser = JSONParser()
        let types = (try? parser.parse(try row.string("event_types")))?.arrayValue ?? []
        let headers = (try? parser.parse(try row.string("headers")))?.objectValue ?? []
        self.init(
            id: try row.string("id"), projectId: try row.string("project_id"), family: family,
            url: try row.string("url"), description: try row.string("description"),
            eventTypes: types.compactMap(\.stringValue),
            headers: headers.compactMap { name, value in value.stringValue.map { (name, $0) } },
            metadata: (try? parser.parse(try row.string("metadata"))).flatMap(OrderedStringMap.init(json:)) ?? [:],
            labels: (try? parser.parse(try row.string("labels"))).flatMap(OrderedStringMap.init(json:)) ?? [:],
            secret: try row.string("secret"), enabled: try row.int("enabled") != 0,
            disabledReason: row.optionalString("disabled_reason"), failingSince: row.optionalInt("failing_since"),
            livemode: try row.int("livemode") != 0, createdAt: try row.int("created_at"))
    }
}

import OnrampCore
import OnrampStore
import OnrampWire

/// Why a subscription change is refused; each family's edge renders it in its own error shape.
enum WebhookSubscriptionRefusal: Error, Equatable, CustomStringConvertible {
    /// The project already has the most subscriptions of the family and mode it may have.
    case tooMany(limit: Int)
    /// No subscription of the caller's project, family and mode has this id.
    case notFound(id: String)
    /// A label added by name (CDP's `labelKey`) would make more labels than a subscription may hold.
    case tooManyLabels(limit: Int)

    var description: String {
        switch self {
        case .tooMany(let limit): "A project may have at most \(limit) webhook subscriptions; delete one first."
        case .notFound(let id): "No webhook subscription \(id)."
        case .tooManyLabels(let limit): "labels may hold at most \(limit) keys."
        }
    }
}

/// What a create or update request changes in a subscription (`nil`: left as it is), decoded by
/// each family's edge from its own body.
struct WebhookSubscriptionChange: Sendable {
    var url: String?
    var eventTypes: [String]?
    var description: String?
    var headers: [(String, String)]?
    var enabled: Bool?
    var metadata: JSONValue?
    var labels: JSONValue?
    /// One label set by name on top of the others (the older CDP body's `labelKey` and `labelValue`).
    var addedLabel: (key: String, value: String)?

    /// Labels a subscription may hold.
    static let labelLimit = 50

    func apply(to subscription: inout WebhookSubscription) throws(WebhookSubscriptionRefusal) {
        if let url { subscription.url = url }
        if let eventTypes { subscription.eventTypes = eventTypes }
        if let description { subscription.description = description }
        if let headers { subscription.headers = headers }
        if let enabled {
            subscription.enabled = enabled
            // Enabled again by its owner: the reason it was disabled no longer applies.
            if enabled { subscription.disabledReason = nil }
        }
        if let metadata { subscription.metadata = metadata }
        if let labels { subscription.labels = labels }
        if let (key, value) = addedLabel {
            let others = (subscription.labels.objectValue ?? []).filter { $0.0 != key }
            guard others.count < Self.labelLimit else { throw .tooManyLabels(limit: Self.labelLimit) }
            subscription.labels = .object(others + [(key, .string(value))])
        }
    }
}

/// Creates, reads, changes and deletes the webhook subscriptions of both families (CDP subscriptions
/// and Stripe webhook endpoints), each scoped to its project, family and mode.
struct WebhookSubscriptionService: Sendable {
    let database: any Database
    let ids: IdGenerator
    let clock: any Clock
    /// Which target addresses the API accepts (the operator's own tools, `onramp listen` and `trigger`, are
    /// not held to it at creation; deliveries always are).
    var targets = WebhookTargetPolicy()

    /// Creates a subscription of `family` from `change` (which names at least the URL and event types);
    /// its signing secret is `secret`, or a new one in the family's form (`whsec_…`, a UUID for CDP).
    func create(
        _ change: WebhookSubscriptionChange, projectId: String, family: WebhookFamily, livemode: Bool,
        secret: String? = nil
    ) throws -> WebhookSubscription {
        let now = Timestamp.milliseconds(clock.now())
        var subscription = WebhookSubscription(
            id: family == .stripe ? ids.id(prefix: IdPrefix.webhookEndpoint) : ids.uuid(), projectId: projectId,
            family: family, url: "", description: "", eventTypes: [], headers: [], metadata: .object([]),
            labels: .object([]),
            secret: secret ?? (family == .stripe ? ids.id(prefix: IdPrefix.webhookSecret, length: 32) : ids.uuid()),
            enabled: true, disabledReason: nil, failingSince: nil, livemode: livemode, createdAt: now)
        try change.apply(to: &subscription)
        let dialect = database.dialect
        try database.transaction { connection in
            let repository = WebhookSubscriptionRepository(connection: connection)
            guard try repository.count(of: subscription, lockingProjectFor: dialect) < Self.maximumPerProject else {
                throw WebhookSubscriptionRefusal.tooMany(limit: Self.maximumPerProject)
            }
            try repository.insert(subscription, now: now)
        }
        return subscription
    }

    /// Subscriptions a project may have per family and mode.
    static let maximumPerProject = WebhookSubscriptionRepository.maximumPerProject

    /// Up to `limit` subscriptions after `startingAfter`, oldest first.
    func list(projectId: String, family: WebhookFamily, livemode: Bool?, limit: Int, startingAfter: String?) throws
        -> [WebhookSubscription]
    {
        try database.read {
            try WebhookSubscriptionRepository(connection: $0).list(
                projectId: projectId, family: family, limit: limit, startingAfter: startingAfter, livemode: livemode)
        }
    }

    /// The subscription `id`.
    func find(id: String, projectId: String, family: WebhookFamily, livemode: Bool?) throws -> WebhookSubscription {
        guard
            let subscription = try database.read({
                try WebhookSubscriptionRepository(connection: $0).find(
                    id: id, projectId: projectId, family: family, livemode: livemode)
            })
        else { throw WebhookSubscriptionRefusal.notFound(id: id) }
        return subscription
    }

    /// Applies `change` to the subscription `id` and returns it as stored.
    func update(
        id: String, projectId: String, family: WebhookFamily, livemode: Bool?, _ change: WebhookSubscriptionChange
    ) throws -> WebhookSubscription {
        var subscription = try find(id: id, projectId: projectId, family: family, livemode: livemode)
        try change.apply(to: &subscription)
        let now = Timestamp.milliseconds(clock.now())
        try database.transaction { try WebhookSubscriptionRepository(connection: $0).update(subscription, now: now) }
        return subscription
    }

    /// Deletes the subscription `id`; returns it as it was.
    func delete(id: String, projectId: String, family: WebhookFamily, livemode: Bool?) throws -> WebhookSubscription {
        let subscription = try find(id: id, projectId: projectId, family: family, livemode: livemode)
        try database.transaction {
            _ = try WebhookSubscriptionRepository(connection: $0).delete(
                id: subscription.id, projectId: projectId, family: family)
        }
        return subscription
    }

    /// The latest `limit` deliveries to `subscription`, newest first.
    func deliveries(
        of subscription: WebhookSubscription, filter: WebhookDeliveryRepository.Filter = .init(), limit: Int
    ) throws -> [WebhookDelivery] {
        try database.read {
            try WebhookDeliveryRepository(connection: $0).list(
                subscriptionId: subscription.id, filter: filter, limit: limit)
        }
    }
}

import OnrampCore
import OnrampStore
import OnrampWire

/// Why a subscription change is refused; each family's edge renders it in its own error shape.
package enum WebhookSubscriptionRefusal: Error, Equatable, CustomStringConvertible {
    /// The project already has the most subscriptions of the family and mode it may have.
    case tooMany(limit: Int)
    /// No subscription of the caller's project, family and mode has this id.
    case notFound(id: String)
    /// A change would leave `field` (`labels`, `metadata`) with more keys than a subscription may hold.
    case tooManyKeys(field: String, limit: Int)

    package var description: String {
        switch self {
        case .tooMany(let limit): "A project may have at most \(limit) webhook subscriptions; delete one first."
        case .notFound(let id): "No webhook subscription \(id)."
        case .tooManyKeys(let field, let limit): "\(field) may hold at most \(limit) keys."
        }
    }
}

/// What a create or update request changes in a subscription (`nil`: left as it is), decoded by
/// each family's edge from its own body.
package struct WebhookSubscriptionChange: Sendable {
    package var url: String?
    package var eventTypes: [String]?
    package var description: String?
    package var headers: [(String, String)]?
    package var enabled: Bool?
    package var metadata: MetadataChange?
    package var labels: OrderedStringMap?
    /// One label set by name on top of the others (the older CDP body's `labelKey` and `labelValue`).
    package var addedLabel: (key: String, value: String)?

    /// What a change does to the metadata.
    package enum MetadataChange: Sendable {
        /// They become these (a CDP `PUT`, or Stripe's `metadata=""`, which unsets them all).
        case replace(OrderedStringMap)
        /// Each key given is set, and one given an empty value unset (Stripe's update: "individual keys can be
        /// unset by posting an empty value to them").
        case merge(OrderedStringMap)
    }

    /// Labels, or metadata keys, a subscription may hold.
    package static let labelLimit = 50

    package func apply(to subscription: inout WebhookSubscription) throws(WebhookSubscriptionRefusal) {
        if let url { subscription.url = url }
        if let eventTypes { subscription.eventTypes = eventTypes }
        if let description { subscription.description = description }
        if let headers { subscription.headers = headers }
        if let enabled {
            subscription.enabled = enabled
            // Enabled again by its owner: the reason it was disabled no longer applies.
            if enabled { subscription.disabledReason = nil }
        }
        switch metadata {
        case .replace(let map): subscription.metadata = map
        case .merge(let map):
            for entry in map.entries { subscription.metadata[entry.key] = entry.value.isEmpty ? nil : entry.value }
            guard subscription.metadata.entries.count <= Self.labelLimit else {
                throw .tooManyKeys(field: "metadata", limit: Self.labelLimit)
            }
        case nil: break
        }
        if let labels { subscription.labels = labels }
        if let (key, value) = addedLabel {
            var labels = subscription.labels
            labels[key] = nil
            guard labels.entries.count < Self.labelLimit else {
                throw .tooManyKeys(field: "labels", limit: Self.labelLimit)
            }
            labels[key] = value
            subscription.labels = labels
        }
    }

    /// A value with each stored property given.
    package init(
        url: String? = nil, eventTypes: [String]? = nil, description: String? = nil, headers: [(String, String)]? = nil,
        enabled: Bool? = nil, metadata: MetadataChange? = nil, labels: OrderedStringMap? = nil,
        addedLabel: (key: String, value: String)? = nil
    ) {
        self.url = url
        self.eventTypes = eventTypes
        self.description = description
        self.headers = headers
        self.enabled = enabled
        self.metadata = metadata
        self.labels = labels
        self.addedLabel = addedLabel
    }
}

/// Creates, reads, changes and deletes the webhook subscriptions of both families (CDP subscriptions
/// and Stripe webhook endpoints), each scoped to its project, family and mode.
package struct WebhookSubscriptionService: Sendable {
    package let database: any Database
    package let ids: IdGenerator
    package let clock: any Clock
    /// Which target addresses the API accepts (the operator's own tools, `onramp listen` and `trigger`, are
    /// not held to it at creation; deliveries always are).
    package var targets: WebhookTargetPolicy = WebhookTargetPolicy()

    /// Creates a subscription of `family` from `change` (which names at least the URL and event types);
    /// its signing secret is `secret`, or a new one in the family's form (`whsec_…`, a UUID for CDP).
    package func create(
        _ change: WebhookSubscriptionChange, projectId: String, family: WebhookFamily, livemode: Bool,
        secret: String? = nil
    ) throws -> WebhookSubscription {
        let now = Timestamp.milliseconds(clock.now())
        var subscription = WebhookSubscription(
            id: family == .stripe ? ids.id(prefix: IdPrefix.webhookEndpoint) : ids.uuid(), projectId: projectId,
            family: family, url: "", description: "", eventTypes: [], headers: [], metadata: [:], labels: [:],
            secret: secret ?? (family == .stripe ? ids.id(prefix: IdPrefix.webhookSecret, length: 32) : ids.uuid()),
            enabled: true, disabledReason: nil, failingSince: nil, livemode: livemode, createdAt: now)
        try change.apply(to: &subscription)
        try database.transaction { connection in
            let repository = WebhookSubscriptionRepository(connection: connection)
            guard try repository.count(lockingProjectOf: subscription) < Self.maximumPerProject else {
                throw WebhookSubscriptionRefusal.tooMany(limit: Self.maximumPerProject)
            }
            try repository.insert(subscription, now: now)
        }
        return subscription
    }

    /// Subscriptions a project may have per family and mode.
    package static let maximumPerProject = WebhookSubscriptionRepository.maximumPerProject

    /// Up to `limit` subscriptions after `startingAfter`, oldest first.
    package func list(projectId: String, family: WebhookFamily, livemode: Bool?, limit: Int, startingAfter: String?)
        throws
        -> [WebhookSubscription]
    {
        try database.read {
            try WebhookSubscriptionRepository(connection: $0).list(
                projectId: projectId, family: family, limit: limit, startingAfter: startingAfter, livemode: livemode)
        }
    }

    /// The subscription `id`.
    package func find(id: String, projectId: String, family: WebhookFamily, livemode: Bool?) throws
        -> WebhookSubscription
    {
        guard
            let subscription = try database.read({
                try WebhookSubscriptionRepository(connection: $0).find(
                    id: id, projectId: projectId, family: family, livemode: livemode)
            })
        else { throw WebhookSubscriptionRefusal.notFound(id: id) }
        return subscription
    }

    /// Applies `change` to the subscription `id` and returns it as stored.
    package func update(
        id: String, projectId: String, family: WebhookFamily, livemode: Bool?, _ change: WebhookSubscriptionChange
    ) throws -> WebhookSubscription {
        var subscription = try find(id: id, projectId: projectId, family: family, livemode: livemode)
        try change.apply(to: &subscription)
        let now = Timestamp.milliseconds(clock.now())
        try database.transaction { try WebhookSubscriptionRepository(connection: $0).update(subscription, now: now) }
        return subscription
    }

    /// Deletes the subscription `id`; returns it as it was.
    package func delete(id: String, projectId: String, family: WebhookFamily, livemode: Bool?) throws
        -> WebhookSubscription
    {
        let subscription = try find(id: id, projectId: projectId, family: family, livemode: livemode)
        try database.transaction {
            _ = try WebhookSubscriptionRepository(connection: $0).delete(
                id: subscription.id, projectId: projectId, family: family)
        }
        return subscription
    }

    /// The latest `limit` deliveries to `subscription`, newest first.
    package func deliveries(
        of subscription: WebhookSubscription, filter: WebhookDeliveryRepository.Filter = .init(), limit: Int
    ) throws -> [WebhookDelivery] {
        try database.read {
            try WebhookDeliveryRepository(connection: $0).list(
                subscriptionId: subscription.id, filter: filter, limit: limit)
        }
    }

    /// A value with each stored property given.
    package init(
        database: any Database, ids: IdGenerator, clock: any Clock, targets: WebhookTargetPolicy = WebhookTargetPolicy()
    ) {
        self.database = database
        self.ids = ids
        self.clock = clock
        self.targets = targets
    }
}

import OnrampCore
import OnrampStore
import OnrampWire

/// Operator and developer actions on the webhook tables of a database, for the CLI (`onramp events`,
/// `onramp listen`) and for tests: list events with their deliveries, redeliver, manage subscriptions.
public struct WebhookOperations: Sendable {
    package let database: any Database
    package let clock: any OnrampCore.Clock
    package let ids: IdGenerator

    /// Creates the operations on a migrated `database`.
    public init(
        database: any Database, clock: any OnrampCore.Clock = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.database = database
        self.clock = clock
        self.ids = IdGenerator(random: random)
    }

    /// The newest events first (optionally of one `type` or `projectId`), each with its deliveries:
    /// `{id, projectId, family, type, livemode, createdAt, fannedOut, deliveries:[…]}`.
    public func listEvents(type: String? = nil, projectId: String? = nil, limit: Int = 20) throws -> [JSONValue] {
        var clauses: [String] = []
        var parameters: [SQLValue] = []
        if let type {
            clauses.append("type = ?")
            parameters.append(.text(type))
        }
        if let projectId {
            clauses.append("project_id = ?")
            parameters.append(.text(projectId))
        }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        return try database.read { connection in
            let rows = try connection.query(
                "SELECT * FROM outbox_events \(filter) ORDER BY created_at DESC, id DESC LIMIT ?",
                parameters + [.integer(Int64(limit))])
            let deliveries = WebhookDeliveryRepository(connection: connection)
            return try rows.map { row in
                let id = try row.string("id")
                return [
                    "id": .string(id), "projectId": .string(try row.string("project_id")),
                    "family": .string(try row.string("family")), "type": .string(try row.string("type")),
                    "livemode": .bool(try row.int("livemode") != 0), "createdAt": .integer(try row.int("created_at")),
                    "fannedOut": .bool(try row.int("fanned_out") != 0),
                    "deliveries": .array(try deliveries.list(eventId: id).map(\.json)),
                ]
            }
        }
    }

    /// Makes the event due for delivery again to every matching subscription (same event id);
    /// `false` when there is no such event.
    public func redeliver(eventId: String) throws -> Bool {
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction {
            try WebhookDeliveryRepository(connection: $0).redeliver(eventId: eventId, now: now)
        }
    }

    /// Creates an enabled subscription of `family` for `projectId`; `secret` defaults to a new
    /// `whsec_…` value.
    public func createSubscription(
        projectId: String, family: WebhookFamily, url: String, eventTypes: [String], description: String,
        secret: String? = nil
    ) throws -> WebhookSubscription {
        try WebhookSubscriptionService(database: database, ids: ids, clock: clock).create(
            WebhookSubscriptionChange(url: url, eventTypes: eventTypes, description: description), projectId: projectId,
            family: family, livemode: false, secret: secret ?? ids.id(prefix: IdPrefix.webhookSecret, length: 32))
    }

    /// Deletes a subscription; `false` when there is none with this id.
    public func deleteSubscription(_ subscription: WebhookSubscription) throws -> Bool {
        try database.transaction {
            try WebhookSubscriptionRepository(connection: $0).delete(
                id: subscription.id, projectId: subscription.projectId, family: subscription.family)
        }
    }
}

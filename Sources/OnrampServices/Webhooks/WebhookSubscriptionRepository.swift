import OnrampStore
import OnrampWire

/// Reads and writes `webhook_subscriptions` on one connection.
package struct WebhookSubscriptionRepository {
    package let connection: any SQLConnection

    /// The most subscriptions a project may have per family and mode (Stripe's limit on webhook endpoints).
    package static let maximumPerProject = 16

    /// How many subscriptions the project of `subscription` has of its family and mode. On PostgreSQL
    /// (`dialect`) the project row is locked first, so concurrent creations count one after another.
    package func count(lockingProjectOf subscription: WebhookSubscription) throws -> Int {
        try connection.lockParent(table: "projects", id: subscription.projectId)
        let existing = try connection.query(
            "SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE project_id = ? AND family = ? AND livemode = ?",
            [
                .text(subscription.projectId), .text(subscription.family.rawValue),
                .integer(subscription.livemode ? 1 : 0),
            ]
        ).first?.int("n")
        return Int(existing ?? 0)
    }

    /// Inserts `subscription`.
    package func insert(_ subscription: WebhookSubscription, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO webhook_subscriptions (id, project_id, family, url, description, event_types, headers,
                metadata, labels, secret, enabled, disabled_reason, failing_since, livemode, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)
            """,
            [
                .text(subscription.id), .text(subscription.projectId), .text(subscription.family.rawValue),
                .text(subscription.url), .text(subscription.description),
                .text(JSONValue.array(subscription.eventTypes.map(JSONValue.string)).serializedString),
                .text(JSONValue.object(subscription.headers.map { ($0, .string($1)) }).serializedString),
                .text(subscription.metadata.json.serializedString), .text(subscription.labels.json.serializedString),
                .text(subscription.secret), .integer(subscription.enabled ? 1 : 0),
                .integer(subscription.livemode ? 1 : 0), .integer(subscription.createdAt), .integer(now),
            ])
    }

    /// Writes the editable fields; re-enabling a disabled subscription clears its failure state (editing
    /// an enabled one keeps the clock that disables it after three failing days).
    package func update(_ subscription: WebhookSubscription, now: Int64) throws {
        // In SET, `enabled` is still the stored value.
        try connection.execute(
            """
            UPDATE webhook_subscriptions
            SET url = ?, description = ?, event_types = ?, headers = ?, metadata = ?, labels = ?, enabled = ?,
                disabled_reason = CASE WHEN ? = 1 AND enabled = 0 THEN NULL ELSE disabled_reason END,
                failing_since = CASE WHEN ? = 1 AND enabled = 0 THEN NULL ELSE failing_since END, updated_at = ?
            WHERE id = ?
            """,
            [
                .text(subscription.url), .text(subscription.description),
                .text(JSONValue.array(subscription.eventTypes.map(JSONValue.string)).serializedString),
                .text(JSONValue.object(subscription.headers.map { ($0, .string($1)) }).serializedString),
                .text(subscription.metadata.json.serializedString), .text(subscription.labels.json.serializedString),
                .integer(subscription.enabled ? 1 : 0), .integer(subscription.enabled ? 1 : 0),
                .integer(subscription.enabled ? 1 : 0), .integer(now), .text(subscription.id),
            ])
    }

    /// One subscription of the project; `livemode` (Stripe keys) keeps test and live endpoints apart.
    package func find(id: String, projectId: String, family: WebhookFamily, livemode: Bool? = nil) throws
        -> WebhookSubscription?
    {
        try connection.query(
            "SELECT * FROM webhook_subscriptions WHERE id = ? AND project_id = ? AND family = ?"
                + (livemode == nil ? "" : " AND livemode = ?"),
            [.text(id), .text(projectId), .text(family.rawValue)] + (livemode.map { [.integer($0 ? 1 : 0)] } ?? [])
        ).first.map(WebhookSubscription.init(row:))
    }

    /// Newest first, after the subscription `startingAfter` when given.
    package func list(
        projectId: String, family: WebhookFamily, limit: Int, startingAfter: String? = nil, livemode: Bool? = nil
    ) throws -> [WebhookSubscription] {
        var sql = "SELECT * FROM webhook_subscriptions WHERE project_id = ? AND family = ?"
        var parameters: [SQLValue] = [.text(projectId), .text(family.rawValue)]
        if let livemode {
            sql += " AND livemode = ?"
            parameters.append(.integer(livemode ? 1 : 0))
        }
        if let startingAfter {
            sql += """
                 AND (created_at < (SELECT created_at FROM webhook_subscriptions WHERE id = ?)
                  OR (created_at = (SELECT created_at FROM webhook_subscriptions WHERE id = ?) AND id < ?))
                """
            parameters += [.text(startingAfter), .text(startingAfter), .text(startingAfter)]
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        return try connection.query(sql, parameters + [.integer(Int64(limit))]).map(WebhookSubscription.init(row:))
    }

    /// Deletes the subscription and its pending deliveries; `false` when it does not exist.
    package func delete(id: String, projectId: String, family: WebhookFamily) throws -> Bool {
        let deleted = try connection.execute(
            "DELETE FROM webhook_subscriptions WHERE id = ? AND project_id = ? AND family = ?",
            [.text(id), .text(projectId), .text(family.rawValue)])
        guard deleted == 1 else { return false }
        try connection.execute(
            "DELETE FROM webhook_deliveries WHERE subscription_id = ? AND status = 'pending'", [.text(id)])
        return true
    }

    /// The enabled subscriptions of a project and family.
    /// The enabled subscriptions an event of `family` goes to. Stripe-family events go only to endpoints
    /// of their own mode (a test event never reaches a live endpoint); CDP has no test mode.
    package func enabled(projectId: String, family: String, livemode: Bool) throws -> [WebhookSubscription] {
        let sameMode = family == WebhookFamily.stripe.rawValue
        return try connection.query(
            "SELECT * FROM webhook_subscriptions WHERE project_id = ? AND family = ? AND enabled = 1"
                + (sameMode ? " AND livemode = ?" : ""),
            [.text(projectId), .text(family)] + (sameMode ? [.integer(livemode ? 1 : 0)] : [])
        ).map(WebhookSubscription.init(row:))
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

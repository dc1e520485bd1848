import OnrampStore

/// The Stripe family's events as `/v1/events` reads them: a project's outbox in one mode, newest
/// first, each as the exact payload its webhook carried.
package struct StripeEventRepository {
    package let connection: any SQLConnection

    /// Up to `limit` payloads, newest first, of type `type` (a trailing `.*` matches a prefix), after
    /// the event `startingAfter` in that order.
    package func payloads(
        projectId: String, livemode: Bool, type: String?, startingAfter: String?, limit: Int
    ) throws -> [String] {
        var sql = "SELECT payload FROM outbox_events WHERE project_id = ? AND family = 'stripe' AND livemode = ?"
        var parameters: [SQLValue] = [.text(projectId), .integer(livemode ? 1 : 0)]
        if let type {
            if type.hasSuffix(".*") {
                sql += " AND type LIKE ?"
                parameters.append(.text(String(type.dropLast()) + "%"))
            } else {
                sql += " AND type = ?"
                parameters.append(.text(type))
            }
        }
        if let startingAfter {
            sql += """
                 AND (created_at < (SELECT created_at FROM outbox_events WHERE id = ?)
                  OR (created_at = (SELECT created_at FROM outbox_events WHERE id = ?) AND id < ?))
                """
            parameters += [.text(startingAfter), .text(startingAfter), .text(startingAfter)]
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        return try connection.query(sql, parameters + [.integer(Int64(limit))]).map { try $0.string("payload") }
    }

    /// One event's payload, if the project has it in that mode. Found by its key alone, the owner checked
    /// here: with the project in the statement, PostgreSQL searched the project's listing index on a table
    /// it had not analyzed yet (as ``OnrampSessionRecord/find(_:id:projectId:livemode:locking:)`` did).
    package func payload(id: String, projectId: String, livemode: Bool) throws -> String? {
        guard
            let row = try connection.query(
                "SELECT project_id, family, livemode, payload FROM outbox_events WHERE id = ?", [.text(id)]
            ).first,
            try row.string("project_id") == projectId, try row.string("family") == WebhookFamily.stripe.rawValue,
            try row.int("livemode") == (livemode ? 1 : 0)
        else { return nil }
        return try row.string("payload")
    }
}

import OnrampStore

/// A project's App2App transactions as the transactions API lists them: filtered, newest first (ties
/// by id), counted, and paged by a keyset cursor.
package struct TransactionRepository {
    /// Which transactions are listed.
    package struct Filter {
        /// Only this partner user's.
        package var partnerUserRef: String?
        /// Created at or after this instant (milliseconds).
        package var createdFrom: Int64?
        /// Created before this instant (milliseconds).
        package var createdBefore: Int64?

        /// A value with each stored property given.
        package init(partnerUserRef: String? = nil, createdFrom: Int64? = nil, createdBefore: Int64? = nil) {
            self.partnerUserRef = partnerUserRef
            self.createdFrom = createdFrom
            self.createdBefore = createdBefore
        }
    }

    package let connection: any SQLConnection
    package let projectId: String
    package let filter: Filter

    /// Up to `limit` transactions, newest first, after the one created at `after.createdAt` with id
    /// `after.id` in that order.
    package func page(after: (createdAt: Int64, id: String)?, limit: Int) throws -> [TransactionRecord] {
        var (clause, parameters) = matching
        if let after {
            clause += " AND (created_at < ? OR (created_at = ? AND transaction_id < ?))"
            parameters += [.integer(after.createdAt), .integer(after.createdAt), .text(after.id)]
        }
        return try connection.query(
            "SELECT * FROM onramp_transactions WHERE \(clause) ORDER BY created_at DESC, transaction_id DESC LIMIT ?",
            parameters + [.integer(Int64(limit))]
        ).map(TransactionRecord.init(row:))
    }

    /// How many transactions the filter matches, on every page.
    package func count() throws -> Int64 {
        let (clause, parameters) = matching
        return try connection.query("SELECT COUNT(*) AS n FROM onramp_transactions WHERE \(clause)", parameters)
            .first?.int("n") ?? 0
    }

    /// The filter as a WHERE clause of bound parameters.
    private var matching: (String, [SQLValue]) {
        var clauses = ["project_id = ?"]
        var parameters: [SQLValue] = [.text(projectId)]
        if let ref = filter.partnerUserRef {
            clauses.append("partner_user_ref = ?")
            parameters.append(.text(ref))
        }
        if let from = filter.createdFrom {
            clauses.append("created_at >= ?")
            parameters.append(.integer(from))
        }
        if let before = filter.createdBefore {
            clauses.append("created_at < ?")
            parameters.append(.integer(before))
        }
        return (clauses.joined(separator: " AND "), parameters)
    }
}

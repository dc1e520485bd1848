import OnrampStore

/// A project's crypto onramp sessions in one mode as `GET /v1/crypto/onramp_sessions` lists them:
/// filtered, newest first (ties by id), paged from a session on either side.
package struct OnrampSessionRepository {
    /// Which sessions are listed.
    package struct Filter {
        package var status: String?
        package var destinationCurrency: String?
        package var destinationNetwork: String?
        /// Created at or after this instant (milliseconds).
        package var createdFrom: Int64?
        /// Created before this instant (milliseconds).
        package var createdBefore: Int64?

        /// Narrows the window to start at `milliseconds` at the earliest.
        package mutating func created(from milliseconds: Int64) {
            createdFrom = max(createdFrom ?? milliseconds, milliseconds)
        }

        /// Narrows the window to end before `milliseconds`.
        package mutating func created(before milliseconds: Int64) {
            createdBefore = min(createdBefore ?? milliseconds, milliseconds)
        }

        /// A value with each stored property given.
        package init(
            status: String? = nil, destinationCurrency: String? = nil, destinationNetwork: String? = nil,
            createdFrom: Int64? = nil, createdBefore: Int64? = nil
        ) {
            self.status = status
            self.destinationCurrency = destinationCurrency
            self.destinationNetwork = destinationNetwork
            self.createdFrom = createdFrom
            self.createdBefore = createdBefore
        }
    }

    /// Where a page starts.
    package enum Anchor {
        /// The newest sessions.
        case newest
        /// Sessions older than this one (`starting_after`).
        case olderThan(String)
        /// Sessions newer than this one (`ending_before`), returned newest first.
        case newerThan(String)
    }

    package let connection: any SQLConnection
    package let projectId: String
    package let livemode: Bool

    /// Up to `limit` sessions, newest first, and whether more lie beyond them on the anchor's side;
    /// `nil` when the anchor session is not the project's.
    package func page(_ filter: Filter, from anchor: Anchor, limit: Int) throws -> (
        sessions: [OnrampSessionRecord], hasMore: Bool
    )? {
        var sql = "SELECT * FROM crypto_onramp_sessions WHERE project_id = ? AND livemode = ?"
        var parameters: [SQLValue] = [.text(projectId), .integer(livemode ? 1 : 0)]
        for (column, value) in [
            ("status", filter.status), ("destination_currency", filter.destinationCurrency),
            ("destination_network", filter.destinationNetwork),
        ] {
            if let value {
                sql += " AND \(column) = ?"
                parameters.append(.text(value))
            }
        }
        if let from = filter.createdFrom {
            sql += " AND created_at >= ?"
            parameters.append(.integer(from))
        }
        if let before = filter.createdBefore {
            sql += " AND created_at < ?"
            parameters.append(.integer(before))
        }
        var ascending = false
        switch anchor {
        case .newest:
            break
        case .olderThan(let id), .newerThan(let id):
            guard
                let session = try OnrampSessionRecord.find(connection, id: id, projectId: projectId, livemode: livemode)
            else { return nil }
            if case .newerThan = anchor { ascending = true }
            sql +=
                ascending
                ? " AND (created_at > ? OR (created_at = ? AND id > ?))"
                : " AND (created_at < ? OR (created_at = ? AND id < ?))"
            parameters += [.integer(session.createdAt), .integer(session.createdAt), .text(session.id)]
        }
        sql += ascending ? " ORDER BY created_at ASC, id ASC LIMIT ?" : " ORDER BY created_at DESC, id DESC LIMIT ?"
        let records = try connection.query(sql, parameters + [.integer(Int64(limit + 1))])
            .map(OnrampSessionRecord.init(row:))
        let page = records.prefix(limit)
        return (ascending ? page.reversed() : Array(page), records.count > limit)
    }
}

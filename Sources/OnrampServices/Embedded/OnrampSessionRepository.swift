import OnrampStore

/// A project's crypto onramp sessions in one mode as `GET /v1/crypto/onramp_sessions` lists them:
/// filtered, newest first (ties by id), paged from a session on either side.
package struct OnrampSessionRepository {
    /// The session's details as columns (they were one JSON `details` column, parsed and written whole on every
    /// read and save): the purchase's written once, the quote's on every save. Existing sessions are copied
    /// across, then `details` is dropped.
    package static let migrations = [
        Migration(
            version: 710, name: "onramp_session_details_columns",
            sql: """
                ALTER TABLE crypto_onramp_sessions ADD COLUMN amount_input TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN amount_side TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN customer_ip_address TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN destination_currencies TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN destination_networks TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN metadata TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN payment_token TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN settlement_speed TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN source_currency TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN wallet_address TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN destination_amount TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN network_fee_amount TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN source_amount TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN source_total_amount TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN transaction_fee_amount TEXT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN next_action_url TEXT;
                UPDATE crypto_onramp_sessions SET
                    amount_input = json_extract(details, '$.amount_input'),
                    amount_side = json_extract(details, '$.amount_side'),
                    customer_ip_address = json_extract(details, '$.customer_ip_address'),
                    payment_token = json_extract(details, '$.payment_token'),
                    settlement_speed = json_extract(details, '$.settlement_speed'),
                    source_currency = json_extract(details, '$.source_currency'),
                    wallet_address = json_extract(details, '$.wallet_address'),
                    destination_amount = json_extract(details, '$.destination_amount'),
                    network_fee_amount = json_extract(details, '$.network_fee_amount'),
                    source_amount = json_extract(details, '$.source_amount'),
                    source_total_amount = json_extract(details, '$.source_total_amount'),
                    transaction_fee_amount = json_extract(details, '$.transaction_fee_amount'),
                    next_action_url = json_extract(details, '$.next_action_url'),
                    destination_currencies = COALESCE((SELECT group_concat(value, ',') FROM json_each(crypto_onramp_sessions.details, '$.destination_currencies')), ''),
                    destination_networks = COALESCE((SELECT group_concat(value, ',') FROM json_each(crypto_onramp_sessions.details, '$.destination_networks')), ''),
                    metadata = CASE WHEN json_type(details, '$.metadata') = 'object' THEN json_extract(details, '$.metadata') END;
                ALTER TABLE crypto_onramp_sessions DROP COLUMN details;
                """,
            postgresSQL: """
                ALTER TABLE crypto_onramp_sessions
                    ADD COLUMN amount_input TEXT,
                    ADD COLUMN amount_side TEXT,
                    ADD COLUMN customer_ip_address TEXT,
                    ADD COLUMN destination_currencies TEXT,
                    ADD COLUMN destination_networks TEXT,
                    ADD COLUMN metadata TEXT,
                    ADD COLUMN payment_token TEXT,
                    ADD COLUMN settlement_speed TEXT,
                    ADD COLUMN source_currency TEXT,
                    ADD COLUMN wallet_address TEXT,
                    ADD COLUMN destination_amount TEXT,
                    ADD COLUMN network_fee_amount TEXT,
                    ADD COLUMN source_amount TEXT,
                    ADD COLUMN source_total_amount TEXT,
                    ADD COLUMN transaction_fee_amount TEXT,
                    ADD COLUMN next_action_url TEXT;
                UPDATE crypto_onramp_sessions SET
                    amount_input = details::jsonb ->> 'amount_input',
                    amount_side = details::jsonb ->> 'amount_side',
                    customer_ip_address = details::jsonb ->> 'customer_ip_address',
                    payment_token = details::jsonb ->> 'payment_token',
                    settlement_speed = details::jsonb ->> 'settlement_speed',
                    source_currency = details::jsonb ->> 'source_currency',
                    wallet_address = details::jsonb ->> 'wallet_address',
                    destination_amount = details::jsonb ->> 'destination_amount',
                    network_fee_amount = details::jsonb ->> 'network_fee_amount',
                    source_amount = details::jsonb ->> 'source_amount',
                    source_total_amount = details::jsonb ->> 'source_total_amount',
                    transaction_fee_amount = details::jsonb ->> 'transaction_fee_amount',
                    next_action_url = details::jsonb ->> 'next_action_url',
                    destination_currencies = COALESCE((SELECT string_agg(value, ',' ORDER BY n) FROM jsonb_array_elements_text(details::jsonb -> 'destination_currencies') WITH ORDINALITY AS e(value, n)), ''),
                    destination_networks = COALESCE((SELECT string_agg(value, ',' ORDER BY n) FROM jsonb_array_elements_text(details::jsonb -> 'destination_networks') WITH ORDINALITY AS e(value, n)), ''),
                    metadata = CASE WHEN jsonb_typeof(details::jsonb -> 'metadata') = 'object' THEN (details::jsonb -> 'metadata')::text END;
                ALTER TABLE crypto_onramp_sessions DROP COLUMN details;
                """)
    ]

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

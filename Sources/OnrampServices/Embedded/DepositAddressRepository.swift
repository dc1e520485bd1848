import OnrampStore
import OnrampWire

/// The `crypto_deposit_addresses` table: the private-preview `crypto.deposit_address` objects (stripe-python
/// `stripe/crypto/_deposit_address.py` at 949bda51, stripe-node `src/resources/Crypto/DepositAddresses.ts` at
/// b96f35fb), on the transaction's connection.
package struct DepositAddressRepository {
    package static let migrations = [
        Migration(
            version: 590, name: "crypto_deposit_addresses",
            sql: """
                CREATE TABLE crypto_deposit_addresses (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    livemode BIGINT NOT NULL,
                    network TEXT NOT NULL,
                    address TEXT NOT NULL UNIQUE,
                    customer TEXT,
                    metadata TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE INDEX crypto_deposit_addresses_listing
                    ON crypto_deposit_addresses(project_id, livemode, created_at, id);
                """)
    ]

    /// One stored address.
    package struct Record: Sendable, Equatable {
        package let id: String
        package let projectId: String
        package let livemode: Bool
        package let network: String
        package let address: String
        package let customer: String?
        package let metadata: OrderedStringMap
        package let createdAt: Int64
    }

    package let connection: any SQLConnection

    package func insert(_ record: Record) throws {
        try connection.execute(
            """
            INSERT INTO crypto_deposit_addresses (id, project_id, livemode, network, address, customer, metadata,
                created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.id), .text(record.projectId), .integer(record.livemode ? 1 : 0), .text(record.network),
                .text(record.address), record.customer.map(SQLValue.text) ?? .null,
                .text(record.metadata.json.serializedString), .integer(record.createdAt),
            ])
    }

    /// The address `id` (its owner is the caller's to check).
    package func find(id: String) throws -> Record? {
        try connection.query("SELECT * FROM crypto_deposit_addresses WHERE id = ?", [.text(id)]).first.map(Self.record)
    }

    /// What a listing narrows to.
    package struct Filter: Sendable {
        package var address: String?
        package var customer: String?
        package var network: String?

        /// A value with each stored property given.
        package init(address: String? = nil, customer: String? = nil, network: String? = nil) {
            self.address = address
            self.customer = customer
            self.network = network
        }
    }

    /// Up to `limit` of the project's addresses in `livemode` matching `filter`, newest first, older than
    /// `olderThan` or newer than `newerThan` (the `(created_at, id)` of a listed address) when given.
    package func list(
        projectId: String, livemode: Bool, filter: Filter, olderThan: (Int64, String)?, newerThan: (Int64, String)?,
        limit: Int
    ) throws -> [Record] {
        var sql = "SELECT * FROM crypto_deposit_addresses WHERE project_id = ? AND livemode = ?"
        var values: [SQLValue] = [.text(projectId), .integer(livemode ? 1 : 0)]
        for (column, value) in [
            ("address", filter.address), ("customer", filter.customer), ("network", filter.network),
        ] {
            guard let value else { continue }
            sql += " AND \(column) = ?"
            values.append(.text(value))
        }
        if let (created, id) = olderThan {
            sql += " AND (created_at < ? OR (created_at = ? AND id < ?))"
            values += [.integer(created), .integer(created), .text(id)]
        }
        if let (created, id) = newerThan {
            // The page just newer than the anchor, read oldest first and turned round.
            sql += " AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ?"
            values += [.integer(created), .integer(created), .text(id), .integer(Int64(limit))]
            return try connection.query(sql, values).map(Self.record).reversed()
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        values.append(.integer(Int64(limit)))
        return try connection.query(sql, values).map(Self.record)
    }

    private static func record(_ row: Row) throws -> Record {
        Record(
            id: try row.string("id"), projectId: try row.string("project_id"), livemode: try row.int("livemode") != 0,
            network: try row.string("network"), address: try row.string("address"),
            customer: row.optionalString("customer"),
            metadata: (try? JSONParser().parse(try row.string("metadata"))).flatMap(OrderedStringMap.init(json:))
                ?? [:],
            createdAt: try row.int("created_at"))
    }
}

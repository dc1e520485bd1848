import OnrampStore
import OnrampWire

/// The `crypto_deposits` table: stablecoins received at a `crypto.deposit_address` (in this sandbox, through the
/// deposit test helper), each captured as a succeeded deposit-mode PaymentIntent, on the transaction's connection.
package struct CryptoDepositRepository {
    package static let migrations = [
        Migration(
            version: 660, name: "crypto_deposits",
            sql: """
                CREATE TABLE crypto_deposits (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    livemode BIGINT NOT NULL,
                    deposit_address_id TEXT NOT NULL REFERENCES crypto_deposit_addresses(id),
                    token_currency TEXT NOT NULL,
                    token_amount TEXT NOT NULL,
                    amount_cents BIGINT NOT NULL,
                    transaction_hash TEXT NOT NULL,
                    client_secret TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    UNIQUE (project_id, livemode, transaction_hash)
                );
                CREATE INDEX crypto_deposits_by_address ON crypto_deposits(deposit_address_id, created_at);
                """)
    ]

    /// One deposit and the PaymentIntent it captured (`id` is the intent's).
    package struct Record: Sendable, Equatable {
        package let id: String
        package let projectId: String
        package let livemode: Bool
        package let depositAddressId: String
        package let tokenCurrency: String
        /// The tokens received, as a decimal string in the token's units.
        package let tokenAmount: String
        /// The intent's amount: the tokens' US dollar value in cents, rounded down.
        package let amountCents: Int64
        package let transactionHash: String
        /// `pi_…_secret_…`, for retrieving the intent with a publishable key.
        package let clientSecret: String
        package let createdAt: Int64
    }

    package let connection: any SQLConnection

    /// The statement that stores `record`, for the deposit's transaction.
    package static func inserting(_ record: Record) -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO crypto_deposits (id, project_id, livemode, deposit_address_id, token_currency, token_amount,
                amount_cents, transaction_hash, client_secret, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.id), .text(record.projectId), .integer(record.livemode ? 1 : 0),
                .text(record.depositAddressId), .text(record.tokenCurrency), .text(record.tokenAmount),
                .integer(record.amountCents), .text(record.transactionHash), .text(record.clientSecret),
                .integer(record.createdAt),
            ])
    }

    /// The deposit whose PaymentIntent is `id` (its owner is the caller's to check).
    package func find(id: String) throws -> Record? {
        try connection.query("SELECT * FROM crypto_deposits WHERE id = ?", [.text(id)]).first.map(Self.record)
    }

    /// Whether one of the project's deposits in `livemode` already carries `transactionHash` (an on-chain transfer
    /// is received once).
    package func exists(projectId: String, livemode: Bool, transactionHash: String) throws -> Bool {
        try !connection.query(
            "SELECT id FROM crypto_deposits WHERE project_id = ? AND livemode = ? AND transaction_hash = ?",
            [.text(projectId), .integer(livemode ? 1 : 0), .text(transactionHash)]
        ).isEmpty
    }

    private static func record(_ row: Row) throws -> Record {
        Record(
            id: try row.string("id"), projectId: try row.string("project_id"), livemode: try row.int("livemode") != 0,
            depositAddressId: try row.string("deposit_address_id"), tokenCurrency: try row.string("token_currency"),
            tokenAmount: try row.string("token_amount"), amountCents: try row.int("amount_cents"),
            transactionHash: try row.string("transaction_hash"), clientSecret: try row.string("client_secret"),
            createdAt: try row.int("created_at"))
    }
}

import OnrampStore

/// The 2026 KYC and compliance calls' storage, on the transaction's connection: the identifiers a customer
/// submitted (only a keyed hash and the last 4 characters of each value), the documents uploaded for KYC
/// (metadata only; the bytes are not kept), and the requirements fulfilled. Also the link session keys
/// (`lsk_…`) of consumer sessions, kept as hashes beside the session.
package struct KYCComplianceRepository {
    package static let migrations = [
        Migration(
            version: 580, name: "kyc_compliance",
            sql: """
                ALTER TABLE consumer_sessions ADD COLUMN link_session_key_hash TEXT;
                CREATE UNIQUE INDEX consumer_sessions_link_session_key ON consumer_sessions(link_session_key_hash);
                CREATE TABLE customer_identifiers (
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    type TEXT NOT NULL,
                    value_hash TEXT NOT NULL,
                    value_last4 TEXT NOT NULL,
                    submitted_at BIGINT NOT NULL,
                    PRIMARY KEY (customer_id, type)
                );
                CREATE TABLE kyc_documents (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    livemode BIGINT NOT NULL,
                    customer_id TEXT REFERENCES crypto_customers(id),
                    content_type TEXT NOT NULL,
                    file_name TEXT,
                    size BIGINT NOT NULL,
                    sha256 TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE customer_kyc_fulfillments (
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    requirement TEXT NOT NULL,
                    submission_id TEXT NOT NULL,
                    submission TEXT NOT NULL,
                    fulfilled_at BIGINT NOT NULL,
                    PRIMARY KEY (customer_id, requirement)
                );
                """)
    ]

    package let connection: any SQLConnection

    /// The identifier types `customerId` has submitted.
    package func identifierTypes(of customerId: String) throws -> Set<String> {
        Set(
            try connection.query("SELECT type FROM customer_identifiers WHERE customer_id = ?", [.text(customerId)])
                .map { try $0.string("type") })
    }

    /// Stores (or replaces) an identifier of `customerId`.
    package func saveIdentifier(customerId: String, type: String, valueHash: String, last4: String, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO customer_identifiers (customer_id, type, value_hash, value_last4, submitted_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (customer_id, type) DO UPDATE SET value_hash = excluded.value_hash,
                value_last4 = excluded.value_last4, submitted_at = excluded.submitted_at
            """, [.text(customerId), .text(type), .text(valueHash), .text(last4), .integer(now)])
    }

    /// The requirements `customerId` has fulfilled.
    package func fulfilled(by customerId: String) throws -> Set<String> {
        Set(
            try connection.query(
                "SELECT requirement FROM customer_kyc_fulfillments WHERE customer_id = ?", [.text(customerId)]
            ).map { try $0.string("requirement") })
    }

    /// Records that `customerId` fulfilled `requirement` with `submission` (JSON text); false when it was
    /// fulfilled already.
    package func fulfill(customerId: String, requirement: String, submissionId: String, submission: String, now: Int64)
        throws -> Bool
    {
        try connection.execute(
            """
            INSERT INTO customer_kyc_fulfillments (customer_id, requirement, submission_id, submission, fulfilled_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (customer_id, requirement) DO NOTHING
            """, [.text(customerId), .text(requirement), .text(submissionId), .text(submission), .integer(now)]) == 1
    }

    /// An uploaded KYC document's record.
    package struct Document: Equatable {
        package let id: String
        package let projectId: String
        package let livemode: Bool
        /// The customer whose link session key uploaded it; `nil` when a publishable key did.
        package let customerId: String?
    }

    /// Stores an uploaded document's metadata.
    package func insertDocument(
        _ document: Document, contentType: String, fileName: String?, size: Int, sha256: String, now: Int64
    ) throws {
        try connection.execute(
            """
            INSERT INTO kyc_documents (id, project_id, livemode, customer_id, content_type, file_name, size, sha256,
                created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(document.id), .text(document.projectId), .integer(document.livemode ? 1 : 0),
                document.customerId.map(SQLValue.text) ?? .null, .text(contentType),
                fileName.map(SQLValue.text) ?? .null, .integer(Int64(size)), .text(sha256), .integer(now),
            ])
    }

    /// The document `id`, if there is one.
    package func document(id: String) throws -> Document? {
        try connection.query("SELECT * FROM kyc_documents WHERE id = ?", [.text(id)]).first.map {
            Document(
                id: try $0.string("id"), projectId: try $0.string("project_id"), livemode: try $0.int("livemode") != 0,
                customerId: $0.optionalString("customer_id"))
        }
    }

    /// The project and consumer of the live (not logged out, not expired, verified) consumer session whose link
    /// session key hashes to `hash`, at the real time `now` (its expiry was written in its project's time, and
    /// is compared there).
    package func linkSession(keyHash hash: String, now: Int64) throws -> (projectId: String, consumerId: String)? {
        try connection.query(
            """
            SELECT project_id, consumer_id FROM consumer_sessions
            WHERE link_session_key_hash = ? AND logged_out = 0 AND verified = 1
                AND expires_at > ? + COALESCE(
                    (SELECT c.offset_ms FROM test_clocks c WHERE c.project_id = consumer_sessions.project_id), 0)
            """, [.text(hash), .integer(now)]
        ).first.map { (try $0.string("project_id"), try $0.string("consumer_id")) }
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

import OnrampCore
import OnrampStore

/// The identity verifications (`identity_verifications`) the hosted identity page and the verification
/// page API work on: found by id or by the hash of their ephemeral key, with the fields collected and the
/// files uploaded for them.
package struct IdentityVerificationRepository {
    package let connection: any SQLConnection

    /// Stores a verification of `customer`, open (`requires_input`); only the hashes of its page token and
    /// ephemeral key are kept.
    package func insert(
        id: String, customer: CryptoCustomer, pageTokenHash: String, ephemeralKeyHash: String, now: Int64
    )
        throws
    {
        try connection.execute(
            """
            INSERT INTO identity_verifications (id, project_id, customer_id, page_token_hash, ephemeral_key_hash,
                status, created_at)
            VALUES (?, ?, ?, ?, ?, 'requires_input', ?)
            """,
            [
                .text(id), .text(customer.projectId), .text(customer.id), .text(pageTokenHash),
                .text(ephemeralKeyHash), .integer(now),
            ])
    }

    /// The verification whose ephemeral key hashes to `keyHash`, and when it started.
    package func find(ephemeralKeyHash keyHash: String) throws -> (VerificationPageState, createdAt: Int64)? {
        try connection.query("SELECT * FROM identity_verifications WHERE ephemeral_key_hash = ?", [.text(keyHash)])
            .first.map { row in (try VerificationPageState(row: row), try row.int("created_at")) }
    }

    /// The verification `id`.
    package func find(id: String) throws -> VerificationPageState? {
        try connection.query("SELECT * FROM identity_verifications WHERE id = ?", [.text(id)]).first.map(
            VerificationPageState.init(row:))
    }

    /// The status of verification `id` and the hash of its page token.
    package func pageAccess(id: String) throws -> (status: String, pageTokenHash: String)? {
        try connection.query("SELECT page_token_hash, status FROM identity_verifications WHERE id = ?", [.text(id)])
            .first.map { (try $0.string("status"), try $0.string("page_token_hash")) }
    }

    /// Moves verification `id` out of `requires_input` to `outcome` and, when given, sets its customer's
    /// document status; `false` when it was no longer open (only one outcome counts).
    package func record(_ outcome: String, documentStatus: VerificationStatus?, verification id: String) throws -> Bool
    {
        guard
            try connection.execute(
                "UPDATE identity_verifications SET status = ? WHERE id = ? AND status = 'requires_input'",
                [.text(outcome), .text(id)]) == 1
        else { return false }
        if let documentStatus {
            try connection.execute(
                """
                UPDATE crypto_customers SET document_status = ?
                WHERE id = (SELECT customer_id FROM identity_verifications WHERE id = ?)
                """, [.text(documentStatus.rawValue), .text(id)])
        }
        return true
    }

    /// Replaces the fields collected so far.
    package func setCollected(_ fields: [String], verification id: String) throws {
        try connection.execute(
            "UPDATE identity_verifications SET collected = ? WHERE id = ?",
            [.text(fields.joined(separator: ",")), .text(id)])
    }

    /// Marks the verification submitted.
    package func markSubmitted(_ id: String) throws {
        try connection.execute("UPDATE identity_verifications SET submitted = 1 WHERE id = ?", [.text(id)])
    }

    /// Records an upload (its size and purpose; the bytes are not kept).
    package func insertFile(id: String, verification: String, purpose: String, size: Int, now: Int64) throws {
        try connection.execute(
            "INSERT INTO identity_files (id, verification_id, purpose, size, created_at) VALUES (?, ?, ?, ?, ?)",
            [.text(id), .text(verification), .text(purpose), .integer(Int64(size)), .integer(now)])
    }

    /// Whether the file `id` was uploaded for `verification`.
    package func fileExists(_ id: String, verification: String) throws -> Bool {
        try !connection.query(
            "SELECT id FROM identity_files WHERE id = ? AND verification_id = ?", [.text(id), .text(verification)]
        ).isEmpty
    }
}

/// An identity verification as the verification page API sees it.
package struct VerificationPageState {
    package let id: String
    package let status: String
    package let submitted: Bool
    package let collected: Set<String>

    /// What a verification collects, as `VerificationPageFieldType` raw values.
    package static let requiredFields = ["biometric_consent", "id_document_front", "id_document_back", "face"]

    /// The fields still to collect.
    package var missing: [String] { Self.requiredFields.filter { !collected.contains($0) } }

    /// `VerificationPage.Status`.
    package var pageStatus: String {
        switch status {
        case "verified": "verified"
        case "pending": "processing"
        case "canceled": "canceled"
        default: "requires_input"
        }
    }
}

extension VerificationPageState {
    /// The verification a row of `identity_verifications` holds.
    package init(row: Row) throws {
        self.init(
            id: try row.string("id"), status: try row.string("status"), submitted: try row.int("submitted") != 0,
            collected: Set(try row.string("collected").split(separator: ",").map(String.init)))
    }
}

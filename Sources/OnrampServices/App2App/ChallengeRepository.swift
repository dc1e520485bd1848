import OnrampCrypto
import OnrampStore
import OnrampWire

/// Attestation challenges: 32 random bytes, single use, valid for five minutes. Stored under the
/// unpadded base64url form of the bytes; requests may send either that form or standard base64.
package struct ChallengeRepository {
    /// What a challenge is for.
    package enum Purpose: String {
        /// Key registration (attestation).
        case registration
        /// A purchase (assertion), carrying the purchase fields.
        case purchase
    }

    /// A stored challenge.
    package struct Record {
        package let id: String
        package let projectId: String
        package let purpose: Purpose
        package let purchase: String?
        package let createdAt: Int64
        package let expiresAt: Int64
        package let usedAt: Int64?
    }

    /// Challenges expire this many milliseconds after issue.
    package static let lifetimeMilliseconds: Int64 = 5 * 60 * 1000

    package let connection: any SQLConnection

    /// The stored id for challenge text in either accepted encoding, or `nil` when it does not decode to 32 bytes.
    package static func id(forChallengeText text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        let bytes = Base64URL.decode(text) ?? Base64.decode(text)
        guard let bytes, bytes.count == 32 else { return nil }
        return Base64URL.encode(bytes, padded: false)
    }

    /// The client data hashes a device may have used for `text`: SHA-256 of the decoded bytes (the
    /// seed's rule) and SHA-256 of the text as given (the cdp-sdk's documented rule).
    package static func clientDataHashes(forChallengeText text: String) -> [[UInt8]] {
        guard let id = id(forChallengeText: text), let bytes = Base64URL.decode(id) else { return [] }
        return [SHA256.hash(bytes), SHA256.hash(Array(text.utf8))]
    }

    package func insert(
        id: String, projectId: String, purpose: Purpose, purchase: String?, idempotencyKey: String?, now: Int64
    ) throws -> Record {
        let expiresAt = now + Self.lifetimeMilliseconds
        try connection.execute(
            """
            INSERT INTO attestation_challenges (id, project_id, purpose, purchase, idempotency_key, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .text(projectId), .text(purpose.rawValue), purchase.map(SQLValue.text) ?? .null,
                idempotencyKey.map(SQLValue.text) ?? .null, .integer(now), .integer(expiresAt),
            ])
        return Record(
            id: id, projectId: projectId, purpose: purpose, purchase: purchase, createdAt: now, expiresAt: expiresAt,
            usedAt: nil)
    }

    package func find(id: String) throws -> Record? {
        try connection.query("SELECT * FROM attestation_challenges WHERE id = ?", [.text(id)]).first.map(Self.record)
    }

    /// The challenge `id` and its project's test-clock offset in milliseconds (0 without a test clock),
    /// in one statement: a session request's read needs both.
    package func findWithClockOffset(id: String) throws -> (challenge: Record, clockOffset: Int64)? {
        try connection.run(Self.lookupWithClockOffset(id: id))
    }

    /// The query of ``findWithClockOffset(id:)``.
    package static func lookupWithClockOffset(id: String) -> SQLQuery<(challenge: Record, clockOffset: Int64)?> {
        SQLQuery(
            """
            SELECT c.*, COALESCE((SELECT t.offset_ms FROM test_clocks t WHERE t.project_id = c.project_id), 0)
                AS clock_offset
            FROM attestation_challenges c WHERE c.id = ?
            """, [.text(id)]
        ) { outcome in try outcome.rows.first.map { (try record($0), try $0.int("clock_offset")) } }
    }

    /// A purchase challenge as a session request reads it: with its project, the project's records of the
    /// request's key and the project's clock offset.
    package struct Loaded {
        package let challenge: Record
        package let project: Project?
        package let keys: [AttestKeyRepository.Record]
        package let clockOffset: Int64
    }

    /// The challenge `id` with its project and the project's records of `keyId`; nil when there is no such
    /// challenge. On PostgreSQL the three statements go in one round trip with the read's `BEGIN` and `COMMIT`,
    /// the project and the key found through the challenge's id; on SQLite (no round trips, and each such
    /// subquery one more lookup of a random key) they are found by the project id the challenge holds.
    package static func load(id: String, keyId: String, from database: any Database) throws -> Loaded? {
        if database.dialect == .postgres {
            let (found, project, keys) = try database.read(
                lookupWithClockOffset(id: id), ProjectRepository.lookup(projectOfChallenge: id),
                AttestKeyRepository.lookup(projectOfChallenge: id, keyId: keyId))
            return found.map {
                Loaded(challenge: $0.challenge, project: project, keys: keys, clockOffset: $0.clockOffset)
            }
        }
        return try database.read { connection in
            guard let found = try connection.run(lookupWithClockOffset(id: id)) else { return nil }
            let projectId = found.challenge.projectId
            let (project, keys) = try connection.run(
                ProjectRepository.lookup(id: projectId), AttestKeyRepository.lookup(projectId: projectId, keyId: keyId))
            return Loaded(challenge: found.challenge, project: project, keys: keys, clockOffset: found.clockOffset)
        }
    }

    /// SQL for the id of the project of the challenge given as its one parameter, for reading a
    /// challenge's project in the same round trip as the challenge.
    package static let projectIdSQL = "(SELECT project_id FROM attestation_challenges WHERE id = ?)"

    package func find(projectId: String, idempotencyKey: String) throws -> Record? {
        try connection.query(
            "SELECT * FROM attestation_challenges WHERE project_id = ? AND idempotency_key = ?",
            [.text(projectId), .text(idempotencyKey)]
        ).first.map(Self.record)
    }

    /// Marks the challenge used; `false` when it was already used (single use, even under races).
    package func consume(id: String, now: Int64) throws -> Bool {
        try connection.run(Self.consuming(id: id, now: now))
    }

    /// The query of ``consume(id:now:)``: whether it marked the challenge used.
    package static func consuming(id: String, now: Int64) -> SQLQuery<Bool> {
        SQLQuery(
            "UPDATE attestation_challenges SET used_at = ? WHERE id = ? AND used_at IS NULL",
            [.integer(now), .text(id)]
        ) { $0.changes == 1 }
    }

    private static func record(_ row: Row) throws -> Record {
        guard let purpose = Purpose(rawValue: try row.string("purpose")) else {
            throw StoreError(.typeMismatch, "unknown challenge purpose")
        }
        return Record(
            id: try row.string("id"), projectId: try row.string("project_id"), purpose: purpose,
            purchase: row.optionalString("purchase"), createdAt: try row.int("created_at"),
            expiresAt: try row.int("expires_at"), usedAt: row.optionalInt("used_at"))
    }
}

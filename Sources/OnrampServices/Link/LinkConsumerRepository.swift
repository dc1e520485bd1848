import OnrampCore
import OnrampStore

/// Link accounts (`link_consumers`): one per email in a project, found by email or by its hash.
package struct LinkConsumerRepository {
    package let connection: any SQLConnection

    /// The consumer with `email` (lowercased) in `projectId`.
    package func id(email: String, projectId: String) throws -> String? {
        try connection.query(
            "SELECT id FROM link_consumers WHERE project_id = ? AND email = ?", [.text(projectId), .text(email)]
        ).first?.string("id")
    }

    /// The consumer whose email hashes to `emailHash` in `projectId`.
    package func id(emailHash: String, projectId: String) throws -> String? {
        try connection.query(
            "SELECT id FROM link_consumers WHERE project_id = ? AND email_hash = ?",
            [.text(projectId), .text(emailHash)]
        ).first?.string("id")
    }

    /// Creates the account unless the email has one in the project; `false` when it has. One statement
    /// decides, so parallel sign-ups with one email make one account.
    package func insert(
        id: String, projectId: String, email: String, phone: PhoneNumber, country: String, legalName: String,
        now: Int64
    ) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO link_consumers (id, project_id, email, email_hash, phone, country, legal_name, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, email) DO NOTHING
            """,
            [
                .text(id), .text(projectId), .text(email), .text(APIKeyRepository.secretHash(email)),
                .text(phone.e164), .text(country), .text(legalName), .integer(now),
            ]) == 1
    }

    /// Holds the consumer's row until the transaction ends (PostgreSQL; SQLite's writer already
    /// excludes every other writer).
    package func lock(id: String) throws {
        let lock = connection.dialect == .postgres ? " FOR UPDATE" : ""
        _ = try connection.query("SELECT id FROM link_consumers WHERE id = ?\(lock)", [.text(id)])
    }

    /// Replaces the consumer's phone number.
    package func setPhone(id: String, _ phone: PhoneNumber) throws {
        try connection.execute("UPDATE link_consumers SET phone = ? WHERE id = ?", [.text(phone.e164), .text(id)])
    }
}

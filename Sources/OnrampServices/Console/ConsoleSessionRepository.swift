import OnrampStore

/// The console's sign-ins, on the transaction's connection: one row per sign-in, kept by the SHA-256 of its
/// cookie secret (never the secret) and the fingerprint of the operator token it was made with, so that a
/// sign-out ends that sign-in alone and a new token ends every sign-in made with the old one, on every
/// instance sharing the database.
package struct ConsoleSessionRepository {
    /// A sign-in lasts this long at most.
    package static let lifetimeMilliseconds: Int64 = 12 * 3_600_000

    package static let migrations = [
        Migration(
            version: 570, name: "console_sessions",
            sql: """
                CREATE TABLE console_sessions (
                    secret_hash TEXT PRIMARY KEY,
                    token_fingerprint TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);
                """)
    ]

    package let connection: any SQLConnection

    /// Stores a sign-in, and drops the ones that have expired.
    package func insert(secretHash: String, tokenFingerprint: String, now: Int64) throws {
        try connection.execute("DELETE FROM console_sessions WHERE expires_at <= ?", [.integer(now)])
        try connection.execute(
            """
            INSERT INTO console_sessions (secret_hash, token_fingerprint, created_at, expires_at)
            VALUES (?, ?, ?, ?)
            """,
            [.text(secretHash), .text(tokenFingerprint), .integer(now), .integer(now + Self.lifetimeMilliseconds)])
    }

    /// Whether a sign-in with `secretHash`, made with the token of `tokenFingerprint`, is still on.
    package func isActive(secretHash: String, tokenFingerprint: String, now: Int64) throws -> Bool {
        try !connection.query(
            """
            SELECT 1 AS active FROM console_sessions
            WHERE secret_hash = ? AND token_fingerprint = ? AND expires_at > ?
            """, [.text(secretHash), .text(tokenFingerprint), .integer(now)]
        ).isEmpty
    }

    /// Ends the sign-in with `secretHash`.
    package func delete(secretHash: String) throws {
        try connection.execute("DELETE FROM console_sessions WHERE secret_hash = ?", [.text(secretHash)])
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

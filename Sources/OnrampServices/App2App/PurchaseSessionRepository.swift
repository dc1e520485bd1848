import OnrampCore
import OnrampStore

/// Attested purchase sessions: created once per purchase challenge, opened once by the handoff page
/// (single use), valid for 15 minutes after issue. The session token is stored as its SHA-256 (the
/// session's ``Record/key``) and sealed under the data key, so a repeated session request can answer
/// the same `onrampUrl` while the database alone opens no page.
package struct PurchaseSessionRepository {
    /// A stored session.
    package struct Record {
        /// What the session is stored under: its token's SHA-256 (a session stored before migration 510
        /// has the token itself, and no sealed copy).
        package let key: String
        /// The token, sealed (Base64 of AES-GCM with the challenge id as associated data).
        package let tokenSealed: String?
        package let challengeId: String
        package let projectId: String
        package let keyId: String
        package let environment: String
        package let assertionCounter: Int64
        package let purchase: String
        package let quote: String
        package let sandbox: Bool
        package let createdAt: Int64
        package let expiresAt: Int64
        package let openedAt: Int64?
        package let pageSecretHash: String?
        package let outcome: PurchaseOutcome?
        package let redirectTransactionId: String?
        package let transactionId: String?

        /// The handoff page's lifecycle: its link and its page both last until the session expires.
        package var page: SingleUsePage {
            SingleUsePage(linkExpiresAt: expiresAt, openedAt: openedAt, outcome: outcome)
        }
    }

    /// Session tokens expire this many milliseconds after issue.
    package static let lifetimeMilliseconds: Int64 = 15 * 60 * 1000

    /// Adds the sealed copy of the token; from it on, `token` holds the token's SHA-256.
    package static let migrations = [
        Migration(
            version: 510, name: "purchase_session_token_sealed",
            sql: "ALTER TABLE purchase_sessions ADD COLUMN token_sealed TEXT;"),
        // The console's transaction page finds the session that made a transaction.
        Migration(
            version: 670, name: "purchase_sessions_transaction",
            sql: "CREATE INDEX purchase_sessions_transaction ON purchase_sessions(transaction_id);"),
        // The console finds the transaction of a redirect's transactionId (a different id, by design).
        Migration(
            version: 700, name: "purchase_sessions_redirect_transaction",
            sql: """
                CREATE INDEX purchase_sessions_redirect_transaction ON purchase_sessions(redirect_transaction_id);
                """),
    ]

    /// The key a session with `token` is stored under.
    package static func key(of token: String) -> String { APIKeyRepository.secretHash(token) }

    package let connection: any SQLConnection

    /// The statement that stores a new session under `token`'s key, with `tokenSealed` (run in a batch with
    /// the challenge's and the key's updates).
    package static func inserting(
        token: String, tokenSealed: String, challengeId: String, projectId: String, keyId: String, environment: String,
        assertionCounter: Int64, purchase: String, quote: String, sandbox: Bool, now: Int64
    ) -> SQLQuery<Int> {
        .changing(
            """
            INSERT INTO purchase_sessions (token, token_sealed, challenge_id, project_id, key_id, environment,
                assertion_counter, purchase, quote, sandbox, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(key(of: token)), .text(tokenSealed), .text(challengeId), .text(projectId), .text(keyId),
                .text(environment),
                .integer(assertionCounter), .text(purchase), .text(quote), .integer(sandbox ? 1 : 0), .integer(now),
                .integer(now + lifetimeMilliseconds),
            ])
    }

    /// The session the handoff link's `token` names (a session stored before migration 510 by the token
    /// itself, during its last fifteen minutes).
    package func find(token: String) throws -> Record? {
        try connection.query(
            "SELECT * FROM purchase_sessions WHERE token = ? OR (token = ? AND token_sealed IS NULL)",
            [.text(Self.key(of: token)), .text(token)]
        ).first.map(Self.record)
    }

    package func find(challengeId: String) throws -> Record? {
        try connection.query("SELECT * FROM purchase_sessions WHERE challenge_id = ?", [.text(challengeId)]).first.map(
            Self.record)
    }

    /// Opens the session for the handoff page: succeeds once, before expiry, and binds the page to
    /// `pageSecret` (only its hash is stored).
    package func open(key: String, pageSecret: String, now: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE purchase_sessions SET opened_at = ?, page_secret_hash = ?
            WHERE token = ? AND opened_at IS NULL AND expires_at > ?
            """,
            [.integer(now), .text(APIKeyRepository.secretHash(pageSecret)), .text(key), .integer(now)]) == 1
    }

    /// Records the outcome once; `false` when one was already recorded.
    package func finish(
        key: String, outcome: PurchaseOutcome, redirectTransactionId: String? = nil, transactionId: String? = nil
    ) throws -> Bool {
        try connection.execute(
            """
            UPDATE purchase_sessions SET outcome = ?, redirect_transaction_id = ?, transaction_id = ?
            WHERE token = ? AND outcome IS NULL
            """,
            [
                .text(outcome.rawValue), redirectTransactionId.map(SQLValue.text) ?? .null,
                transactionId.map(SQLValue.text) ?? .null,
                .text(key),
            ]) == 1
    }

    private static func record(_ row: Row) throws -> Record {
        Record(
            key: try row.string("token"), tokenSealed: row.optionalString("token_sealed"),
            challengeId: try row.string("challenge_id"),
            projectId: try row.string("project_id"), keyId: try row.string("key_id"),
            environment: try row.string("environment"), assertionCounter: try row.int("assertion_counter"),
            purchase: try row.string("purchase"), quote: try row.string("quote"), sandbox: try row.int("sandbox") != 0,
            createdAt: try row.int("created_at"), expiresAt: try row.int("expires_at"),
            openedAt: row.optionalInt("opened_at"), pageSecretHash: row.optionalString("page_secret_hash"),
            outcome: row.optionalString("outcome").flatMap(PurchaseOutcome.init(rawValue:)),
            redirectTransactionId: row.optionalString("redirect_transaction_id"),
            transactionId: row.optionalString("transaction_id"))
    }
}

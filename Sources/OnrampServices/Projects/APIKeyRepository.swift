import OnrampCrypto
import OnrampStore
import OnrampWire

/// One stored API credential. Secrets are never stored: CDP keys keep their public key, Stripe
/// keys and OAuth client secrets keep a SHA-256 of the secret.
package struct APIKeyRecord: Sendable {
    /// What kind of credential this is.
    package enum Kind: String, Sendable {
        case cdpES256 = "cdp_es256"
        case cdpEd25519 = "cdp_ed25519"
        case stripeSecret = "stripe_secret"
        case stripePublishable = "stripe_publishable"
        case oauthClient = "oauth_client"
    }

    package let id: String
    package let projectId: String
    package let kind: Kind
    package let publicKey: String?
    package let livemode: Bool
    package let disabled: Bool
}

/// Reads and writes API keys.
package struct APIKeyRepository {
    /// On PostgreSQL, a change to keys, a token's revocation and a test clock's move notify
    /// ``CallerCache/channel`` when they commit, once per statement, so every instance's cache forgets what it
    /// kept. Issuing a token or using one does not notify. SQLite's caches expire instead.
    package static let migrations = [
        Migration(
            version: 690, name: "caller_cache_notify", sql: "SELECT 1",
            postgresSQL: """
                CREATE FUNCTION onramp_callers_notify() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_notify('\(CallerCache.channel)', '');
                    RETURN NULL;
                END $$;
                CREATE TRIGGER api_keys_callers AFTER UPDATE OR DELETE ON api_keys
                    FOR EACH STATEMENT EXECUTE FUNCTION onramp_callers_notify();
                CREATE TRIGGER oauth_tokens_callers AFTER UPDATE OF revoked OR DELETE ON oauth_tokens
                    FOR EACH STATEMENT EXECUTE FUNCTION onramp_callers_notify();
                CREATE TRIGGER test_clocks_callers AFTER INSERT OR UPDATE OR DELETE ON test_clocks
                    FOR EACH STATEMENT EXECUTE FUNCTION onramp_callers_notify();
                """)
    ]

    package let connection: any SQLConnection

    /// The hex SHA-256 under which a secret is stored and looked up.
    package static func secretHash(_ secret: String) -> String {
        Hex.encode(SHA256.hash(Array(secret.utf8)))
    }

    /// Whether `secret` hashes to `storedHash`, compared in constant time.
    package static func secretMatches(_ secret: String, storedHash: String) -> Bool {
        ConstantTime.equals(Array(storedHash.utf8), Array(secretHash(secret).utf8))
    }

    package func insert(
        id: String, projectId: String, kind: APIKeyRecord.Kind, publicKey: String?, secret: String?, livemode: Bool,
        createdAt: Int64
    ) throws {
        try connection.execute(
            """
            INSERT INTO api_keys (id, project_id, kind, public_key, secret_hash, livemode, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .text(projectId), .text(kind.rawValue), publicKey.map(SQLValue.text) ?? .null,
                secret.map { .text(Self.secretHash($0)) } ?? .null, .integer(livemode ? 1 : 0), .integer(createdAt),
            ])
    }

    package func find(id: String) throws -> APIKeyRecord? {
        try connection.query("SELECT * FROM api_keys WHERE id = ?", [.text(id)]).first.map(Self.record)
    }

    /// The key whose secret is `secret` (a hash lookup; the secret itself is never compared).
    package func find(secret: String) throws -> APIKeyRecord? {
        try connection.query("SELECT * FROM api_keys WHERE secret_hash = ?", [.text(Self.secretHash(secret))]).first
            .map(Self.record)
    }

    /// The key whose secret hashes to `secretHash` (``secretHash(_:)``) with its project's test-clock offset (0 for a live key or a project
    /// whose clock never moved): a request's caller is one lookup.
    package static func lookupWithClockOffset(secretHash: String) -> SQLQuery<
        (record: APIKeyRecord, clockOffset: Int64)?
    > {
        SQLQuery(
            """
            SELECT k.*, COALESCE(c.offset_ms, 0) AS clock_offset FROM api_keys k
            LEFT JOIN test_clocks c ON c.project_id = k.project_id AND k.livemode = 0
            WHERE k.secret_hash = ?
            """, [.text(secretHash)]
        ) { try $0.rows.first.map { (try record($0), try $0.int("clock_offset")) } }
    }

    /// The publishable key (`pk_…`, kept in clear: it is public) the client SDK uses for `projectId`
    /// in `livemode`: the oldest enabled one.
    package func publishableKey(projectId: String, livemode: Bool) throws -> String? {
        try connection.query(
            """
            SELECT public_key FROM api_keys
            WHERE project_id = ? AND kind = 'stripe_publishable' AND livemode = ? AND disabled = 0
                AND public_key IS NOT NULL
            ORDER BY created_at LIMIT 1
            """, [.text(projectId), .integer(livemode ? 1 : 0)]
        ).first?.string("public_key")
    }

    /// The project of LinkAuthIntent `intentId` when that project has an enabled test-mode
    /// publishable key (the test authorize page acts as that key would).
    package func testModeProject(ofLinkAuthIntent intentId: String) throws -> String? {
        try connection.query(
            """
            SELECT i.project_id AS project_id FROM link_auth_intents i
            JOIN api_keys k ON k.project_id = i.project_id AND k.kind = 'stripe_publishable'
                AND k.disabled = 0 AND k.livemode = 0
            WHERE i.id = ? LIMIT 1
            """, [.text(intentId)]
        ).first?.string("project_id")
    }

    /// Records a CDP JWT's `nonce` for `keyId` until `expiresAt`; a nonce seen before breaks the
    /// table's uniqueness (`StoreError` `.constraintViolation`).
    package func recordNonce(_ nonce: String, keyId: String, expiresAt: Int64) throws {
        try connection.execute(
            "INSERT INTO jwt_nonces (key_id, nonce, expires_at) VALUES (?, ?, ?)",
            [.text(keyId), .text(nonce), .integer(expiresAt)])
    }

    /// Disables key `id`; false when there is no such key.
    package func disable(id: String) throws -> Bool {
        try connection.execute("UPDATE api_keys SET disabled = 1 WHERE id = ?", [.text(id)]) == 1
    }

    private static func record(_ row: Row) throws -> APIKeyRecord {
        guard let kind = APIKeyRecord.Kind(rawValue: try row.string("kind")) else {
            throw StoreError(.typeMismatch, "unknown api key kind")
        }
        return APIKeyRecord(
            id: try row.string("id"), projectId: try row.string("project_id"), kind: kind,
            publicKey: row.optionalString("public_key"), livemode: try row.int("livemode") != 0,
            disabled: try row.int("disabled") != 0)
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

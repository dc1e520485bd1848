import OnrampCore
import OnrampStore

/// Stored LinkAuthIntents driven by the ``LinkAuthIntent`` state machine, and the long-lived
/// seamless sign-in tokens (`lat_…`) with their short-lived single-use client secrets.
package struct LinkAuthIntents: Sendable, UsesServiceEnvironment {
    /// Intents expire ten minutes after creation unless consented or rejected.
    package static let lifetimeMilliseconds: Int64 = 600_000
    /// Seamless sign-in tokens last 90 days.
    package static let linkAuthTokenLifetime: Int64 = 7_776_000_000
    /// A `link_auth_token_client_secret` lasts five minutes and works once.
    package static let clientSecretLifetime: Int64 = 300_000

    /// A stored intent.
    package struct Record {
        package let id: String
        package let consumerId: String
        package let clientId: String
        package let scopes: [OAuthScope]
        package let status: LinkAuthIntent.Status
        package let expiresAt: Int64
    }

    package let environment: ServiceEnvironment

    /// The intents on the parts of `context` they use.
    package init(context: ServerContext) {
        environment = context.environment
    }

    package func find(_ connection: any SQLConnection, id: String, projectId: String) throws -> Record? {
        guard
            let row = try connection.query(
                "SELECT * FROM link_auth_intents WHERE id = ? AND project_id = ?", [.text(id), .text(projectId)]
            ).first,
            let status = LinkAuthIntent.Status(rawValue: try row.string("status"))
        else { return nil }
        return Record(
            id: id, consumerId: try row.string("consumer_id"), clientId: try row.string("oauth_client_id"),
            scopes: OAuthScope.stored(try row.string("scopes")), status: status,
            expiresAt: try row.int("expires_at"))
    }

    /// The intent after expiring it if its time ran out (the change is written).
    package func current(_ connection: any SQLConnection, id: String, projectId: String, now: Int64) throws -> Record? {
        guard let record = try find(connection, id: id, projectId: projectId) else { return nil }
        guard !record.status.isTerminal, now >= record.expiresAt else { return record }
        var machine = LinkAuthIntent(status: record.status)
        _ = try machine.handle(.expire)
        // When a concurrent request moved it first, what it wrote stands.
        _ = try save(connection, id: id, from: record.status, to: machine.status)
        return try find(connection, id: id, projectId: projectId)
    }

    /// OTP passed: `created → authenticated`, then `consented` or `rejected` when `consent` is given.
    package func advance(_ connection: any SQLConnection, id: String, projectId: String, consent: Bool?, now: Int64)
        throws
        -> Record
    {
        guard let record = try current(connection, id: id, projectId: projectId, now: now) else {
            throw OnrampError.missing("link_auth_intent", parameter: "link_auth_intent_id")
        }
        var machine = LinkAuthIntent(status: record.status)
        do {
            if machine.status == .created { _ = try machine.handle(.authenticate) }
            if let consent { _ = try machine.handle(.consent(granted: consent)) }
        } catch {
            throw OnrampError.refusal(
                "link_auth_intent_\(record.status.rawValue)",
                "The LinkAuthIntent is \(record.status.rawValue) and cannot be authorized again.",
                parameter: "link_auth_intent_id")
        }
        guard try save(connection, id: id, from: record.status, to: machine.status) else {
            throw OnrampError.refusal(
                "lock_timeout", "Another request changed this LinkAuthIntent at the same time; retry.",
                kind: .tooManyAttempts)
        }
        return try find(connection, id: id, projectId: projectId) ?? record
    }

    /// Issues a seamless sign-in token for `consumerId`; only its hash is stored.
    package func issueLinkAuthToken(_ connection: any SQLConnection, projectId: String, consumerId: String) throws
        -> String
    {
        let token = ids.id(prefix: IdPrefix.linkAuthToken, length: 40)
        try insertToken(
            connection, token, kind: "token", projectId: projectId, consumerId: consumerId,
            lifetime: Self.linkAuthTokenLifetime)
        return token
    }

    /// Exchanges a seamless sign-in token for a single-use `link_auth_token_client_secret`.
    package func clientSecret(forLinkAuthToken token: String, projectId: String) throws -> (
        secret: String, expiresAt: Int64
    ) {
        let now = nowMilliseconds
        return try database.transaction { connection in
            guard
                let row = try connection.query(
                    """
                    SELECT consumer_id FROM link_auth_tokens
                    WHERE token_hash = ? AND kind = 'token' AND project_id = ? AND expires_at > ?
                    """, [.text(APIKeyRepository.secretHash(token)), .text(projectId), .integer(now)]
                ).first
            else {
                throw OnrampError.refusal(
                    "seamless_sign_in_token_invalid", "The link_auth_token is invalid or expired.",
                    parameter: "link_auth_token")
            }
            let secret = ids.id(prefix: IdPrefix.linkAuthTokenClientSecret, length: 40)
            try insertToken(
                connection, secret, kind: "client_secret", projectId: projectId,
                consumerId: try row.string("consumer_id"), lifetime: Self.clientSecretLifetime)
            return (secret, now + Self.clientSecretLifetime)
        }
    }

    /// Spends a single-use `link_auth_token_client_secret`: the consumer it signs in, or `nil` when it
    /// is unknown, expired or spent (of two racing requests, one gets the consumer).
    package func redeemClientSecret(_ connection: any SQLConnection, _ secret: String, projectId: String, now: Int64)
        throws
        -> String?
    {
        let hash = APIKeyRepository.secretHash(secret)
        guard
            let consumerId = try connection.query(
                """
                SELECT consumer_id FROM link_auth_tokens
                WHERE token_hash = ? AND kind = 'client_secret' AND project_id = ? AND used_at IS NULL
                    AND expires_at > ?
                """, [.text(hash), .text(projectId), .integer(now)]
            ).first?.string("consumer_id"),
            try connection.execute(
                "UPDATE link_auth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
                [.integer(now), .text(hash)]) == 1
        else { return nil }
        return consumerId
    }

    /// Stores a new intent in status `created`; returns when it expires (``lifetimeMilliseconds`` after
    /// `now`).
    package func insert(
        _ connection: any SQLConnection, id: String, projectId: String, consumerId: String, clientId: String,
        scopes: [OAuthScope], now: Int64
    ) throws -> Int64 {
        try connection.execute(
            """
            INSERT INTO link_auth_intents (id, project_id, consumer_id, oauth_client_id, scopes, status,
                created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .text(projectId), .text(consumerId), .text(clientId),
                .text(OAuthScope.storage(scopes)), .text(LinkAuthIntent.Status.created.rawValue), .integer(now),
                .integer(now + Self.lifetimeMilliseconds),
            ])
        return now + Self.lifetimeMilliseconds
    }

    /// Marks the intent's tokens issued; `false` when they were already (they are shown once).
    package func markTokensIssued(_ connection: any SQLConnection, id: String, now: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE link_auth_intents SET tokens_issued_at = ? WHERE id = ? AND tokens_issued_at IS NULL",
            [.integer(now), .text(id)]) == 1
    }

    private func insertToken(
        _ connection: any SQLConnection, _ token: String, kind: String, projectId: String, consumerId: String,
        lifetime: Int64
    ) throws {
        let now = nowMilliseconds
        try connection.execute(
            """
            INSERT INTO link_auth_tokens (token_hash, kind, project_id, consumer_id, expires_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(APIKeyRepository.secretHash(token)), .text(kind), .text(projectId), .text(consumerId),
                .integer(now + lifetime), .integer(now),
            ])
    }

    /// Writes a transition only if no concurrent request moved the intent first (PostgreSQL reads do not
    /// lock); `false` when one did.
    private func save(
        _ connection: any SQLConnection, id: String, from old: LinkAuthIntent.Status, to new: LinkAuthIntent.Status
    ) throws -> Bool {
        try connection.execute(
            "UPDATE link_auth_intents SET status = ? WHERE id = ? AND status = ?",
            [.text(new.rawValue), .text(id), .text(old.rawValue)]) == 1
    }
}

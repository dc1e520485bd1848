import OnrampCore
import OnrampStore

/// The `oauth_tokens` table: Link access and refresh tokens, stored by the SHA-256 of their secret,
/// over one transaction's connection. ``OAuthTokens`` holds the rules (lifetimes, rotation, reuse).
package struct OAuthTokenRepository {
    /// What a token is.
    package enum Kind: String {
        /// A `liwltoken_…` access token.
        case access
        /// A `liwlrefresh_…` refresh token.
        case refresh
    }

    /// A stored token.
    package struct Record {
        package let familyId: String
        package let projectId: String
        package let consumerId: String
        package let clientId: String
        package let scopes: [OAuthScope]
        package let expiresAt: Int64
        package let revoked: Bool
        package let usedAt: Int64?
    }

    package let connection: any SQLConnection

    /// Stores a token of `familyId` under `hash`.
    package func insert(
        hash: String, kind: Kind, familyId: String, projectId: String, consumerId: String, clientId: String,
        scopes: [OAuthScope], expiresAt: Int64, now: Int64
    ) throws {
        try connection.execute(
            """
            INSERT INTO oauth_tokens (token_hash, kind, family_id, project_id, consumer_id, oauth_client_id, scopes,
                expires_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(hash), .text(kind.rawValue), .text(familyId), .text(projectId), .text(consumerId),
                .text(clientId), .text(OAuthScope.storage(scopes)), .integer(expiresAt), .integer(now),
            ])
    }

    /// The token of `kind` stored under `hash`.
    package func find(hash: String, kind: Kind) throws -> Record? {
        try connection.run(Self.lookup(hash: hash, kind: kind))
    }

    /// The query of ``find(hash:kind:)``.
    package static func lookup(hash: String, kind: Kind) -> SQLQuery<Record?> {
        SQLQuery(
            """
            SELECT family_id, project_id, consumer_id, oauth_client_id, scopes, expires_at, revoked, used_at
            FROM oauth_tokens WHERE token_hash = ? AND kind = ?
            """, [.text(hash), .text(kind.rawValue)]
        ) { outcome in
            try outcome.rows.first.map { row in
                Record(
                    familyId: try row.string("family_id"), projectId: try row.string("project_id"),
                    consumerId: try row.string("consumer_id"), clientId: try row.string("oauth_client_id"),
                    scopes: OAuthScope.stored(try row.string("scopes")), expiresAt: try row.int("expires_at"),
                    revoked: try row.int("revoked") != 0, usedAt: row.optionalInt("used_at"))
            }
        }
    }

    /// Revokes every token of `familyId`.
    package func revokeFamily(_ familyId: String) throws {
        try connection.execute("UPDATE oauth_tokens SET revoked = 1 WHERE family_id = ?", [.text(familyId)])
    }

    /// Marks the token under `hash` used at `now`; false when it was already used (a concurrent
    /// rotation won).
    package func markUsed(hash: String, now: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE oauth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
            [.integer(now), .text(hash)]) == 1
    }
}

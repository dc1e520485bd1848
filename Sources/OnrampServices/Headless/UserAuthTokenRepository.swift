import OnrampStore

/// The `onramp_user_auth_tokens` table, on the transaction's connection: the `userAuthToken`s of users verified
/// on an embedded-mode order's page (cdp-sdk 1.51.0 `OnrampUserAuthToken`: "pass it on subsequent orders to take
/// a returning user straight to the pay button, skipping OTP when checking out to the same wallet"). Only a hash
/// of each token is kept; a token is bound to its project, partner user, contact details and wallet, and lasts
/// ``lifetimeMilliseconds``.
package struct UserAuthTokenRepository {
    /// 60 days, as Coinbase documents.
    package static let lifetimeMilliseconds: Int64 = 60 * 86_400_000

    /// A stored token's binding.
    package struct Record: Sendable, Equatable {
        package let projectId: String
        package let partnerUserRef: String
        package let phoneNumber: String
        package let email: String
        package let destinationAddress: String
        package let expiresAt: Int64
        package let revoked: Bool
    }

    package let connection: any SQLConnection

    package func insert(hash: String, record: Record, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO onramp_user_auth_tokens (token_hash, project_id, partner_user_ref, phone_number, email,
                destination_address, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(hash), .text(record.projectId), .text(record.partnerUserRef), .text(record.phoneNumber),
                .text(record.email), .text(record.destinationAddress), .integer(now), .integer(record.expiresAt),
            ])
    }

    package func find(hash: String) throws -> Record? {
        try connection.query("SELECT * FROM onramp_user_auth_tokens WHERE token_hash = ?", [.text(hash)]).first.map {
            Record(
                projectId: try $0.string("project_id"), partnerUserRef: try $0.string("partner_user_ref"),
                phoneNumber: try $0.string("phone_number"), email: try $0.string("email"),
                destinationAddress: try $0.string("destination_address"), expiresAt: try $0.int("expires_at"),
                revoked: $0.optionalInt("revoked_at") != nil)
        }
    }

    /// Revokes every token of `partnerUserRef` in `projectId`; returns how many were live.
    package func revoke(projectId: String, partnerUserRef: String, now: Int64) throws -> Int {
        try connection.execute(
            """
            UPDATE onramp_user_auth_tokens SET revoked_at = ?
            WHERE project_id = ? AND partner_user_ref = ? AND revoked_at IS NULL
            """, [.integer(now), .text(projectId), .text(partnerUserRef)])
    }
}

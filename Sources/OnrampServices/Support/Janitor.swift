import OnrampStore

/// Deletes rows that can no longer be used, so tables fed by unauthenticated or high-volume calls
/// stay bounded: expired challenges (except purchase challenges that carry a session), hosted onramp
/// tokens that made no transaction, expired consumer sessions and seamless sign-in secrets,
/// idempotency keys older than a day, Headless Onramp verifications whose code or 60 days ran out.
package struct Janitor: Sendable {
    package let context: ServerContext

    /// Idempotency keys are kept this long, as Stripe documents.
    package static let idempotencyRetentionMilliseconds: Int64 = 24 * 60 * 60 * 1000
    /// Expired single-use rows are kept this long for support and debugging.
    package static let expiredRetentionMilliseconds: Int64 = 60 * 60 * 1000

    /// One pass; returns how many rows went.
    @discardableResult
    package func sweep() throws -> Int {
        let now = context.nowMilliseconds
        let expired = now - Self.expiredRetentionMilliseconds
        let statements: [(String, [SQLValue])] = [
            (
                """
                DELETE FROM attestation_challenges
                WHERE expires_at < ? AND (purpose = 'registration' OR used_at IS NULL)
                """, [.integer(expired)]
            ),
            (
                "DELETE FROM hosted_onramp_sessions WHERE expires_at < ? AND transaction_id IS NULL",
                [.integer(expired)]
            ),
            ("DELETE FROM consumer_sessions WHERE expires_at < ?", [.integer(expired)]),
            ("DELETE FROM stripe_attest_challenges WHERE expires_at < ?", [.integer(expired)]),
            ("DELETE FROM link_auth_tokens WHERE expires_at < ?", [.integer(expired)]),
            (
                "DELETE FROM card_tokens WHERE created_at < ?",
                [.integer(expired - PaymentMethodService.cardTokenLifetimeMilliseconds)]
            ),
            (
                "DELETE FROM stripe_idempotency_keys WHERE created_at < ?",
                [.integer(now - Self.idempotencyRetentionMilliseconds)]
            ),
            ("DELETE FROM jwt_nonces WHERE expires_at < ?", [.integer(now)]),
            (
                """
                DELETE FROM onramp_verifications
                WHERE (verified_at IS NULL AND otp_expires_at < ?) OR verification_expires_at < ?
                """, [.integer(expired), .integer(expired)]
            ),
        ]
        return try context.database.transaction { connection in
            try statements.reduce(0) { total, statement in total + (try connection.execute(statement.0, statement.1)) }
        }
    }

    /// A value with each stored property given.
    package init(context: ServerContext) {
        self.context = context
    }
}

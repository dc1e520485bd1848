import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// A Link consumer session as the client SDK holds it (`consumer_session_client_secret`); verified
/// by OTP or by seamless sign-in. Stored under the secret's hash.
package struct ConsumerSession: Sendable {
    /// Sessions last a day.
    package static let lifetimeMilliseconds: Int64 = 86_400_000
    /// Wrong OTP codes allowed per consumer (over all their sessions) before confirmation locks.
    package static let maximumOTPFailures: Int64 = 5
    /// The window in which wrong codes count: a fresh lookup does not reset the count.
    package static let otpLockoutMilliseconds: Int64 = 900_000

    package typealias Verification = LinkConsumerSession.Verification

    /// The client secret, as the caller presented it (only its hash is stored).
    package let secret: String
    package let secretHash: String
    package let projectId: String
    package let consumerId: String
    package let linkAuthIntentId: String?
    /// How the session was verified; `nil` until it is.
    package let verifiedBy: Verification.Kind?
    package let otpStarted: Bool

    /// Whether the session may act for the consumer (a fresh sign-up may, as real Link allows).
    package var verified: Bool { verifiedBy != nil }

    /// The verifications the SDK reads: `SIGNUP/STARTED` after sign-up, `SMS/STARTED` once a code was
    /// sent, `SMS/VERIFIED` after it, `LINK_AUTH_TOKEN/VERIFIED` after seamless sign-in.
    package var verifications: [Verification] {
        switch verifiedBy {
        case .signUp: [Verification(.signUp, .started)]
        case .some(let kind): [Verification(kind, .verified)]
        case nil: otpStarted ? [Verification(.sms, .started)] : []
        }
    }

    /// Creates a session, verified by `verifiedBy` when given.
    package static func create(
        _ connection: any SQLConnection, ids: IdGenerator, now: Int64, projectId: String, consumerId: String,
        linkAuthIntentId: String?, verifiedBy: Verification.Kind?
    ) throws -> ConsumerSession {
        let secret = ids.id(prefix: IdPrefix.consumerSessionSecret, length: 40)
        let hash = APIKeyRepository.secretHash(secret)
        try connection.execute(
            """
            INSERT INTO consumer_sessions (secret_hash, project_id, consumer_id, link_auth_intent_id, verified,
                verified_by, created_at, expires_at, link_session_key_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(hash), .text(projectId), .text(consumerId), linkAuthIntentId.map(SQLValue.text) ?? .null,
                .integer(verifiedBy == nil ? 0 : 1), verifiedBy.map { .text($0.rawValue) } ?? .null, .integer(now),
                .integer(now + lifetimeMilliseconds),
                .text(APIKeyRepository.secretHash(linkSessionKey(ofSecret: secret))),
            ])
        return ConsumerSession(
            secret: secret, secretHash: hash, projectId: projectId, consumerId: consumerId,
            linkAuthIntentId: linkAuthIntentId, verifiedBy: verifiedBy, otpStarted: false)
    }

    /// The session's link session key (`lsk_…`), which the newest Android SDK reads from the session
    /// (`ConsumerSession.linkSessionKey`) and sends as its Bearer key on the KYC calls that take one
    /// (`fulfill_kyc_requirements`, KYC document uploads). Derived one way from the secret, so whoever holds the
    /// key cannot act as the session; stored as a hash beside it, and good only while the session is.
    package static func linkSessionKey(ofSecret secret: String) -> String {
        "lsk_" + Hex.encode(SHA256.hash(Array("link_session_key:\(secret)".utf8))).prefix(48)
    }

    /// The session as the SDK decodes it, with its consumer's email and redacted phone.
    package func wire(_ connection: any SQLConnection) throws -> LinkConsumerSession {
        guard
            let consumer = try connection.query(
                "SELECT email, phone, country FROM link_consumers WHERE id = ?", [.text(consumerId)]
            ).first
        else { throw OnrampError.missing("consumer") }
        return LinkConsumerSession(
            clientSecret: secret, emailAddress: try consumer.string("email"),
            redactedFormattedPhoneNumber: LinkConsumerSession.redacted(phone: try consumer.string("phone")),
            redactedPhoneNumber: LinkConsumerSession.redactedE164(phone: try consumer.string("phone")),
            phoneNumberCountry: consumer.optionalString("country"), verificationSessions: verifications,
            linkSessionKey: Self.linkSessionKey(ofSecret: secret))
    }

    /// This session after a write that verified it or sent it a code.
    package func with(verifiedBy: Verification.Kind? = nil, otpStarted: Bool? = nil) -> ConsumerSession {
        ConsumerSession(
            secret: secret, secretHash: secretHash, projectId: projectId, consumerId: consumerId,
            linkAuthIntentId: linkAuthIntentId, verifiedBy: verifiedBy ?? self.verifiedBy,
            otpStarted: otpStarted ?? self.otpStarted)
    }

    /// What a request changes on its session.
    package enum Change {
        /// A new expiry (a refresh).
        case expires(at: Int64)
        /// Logged out: the secret stops working.
        case loggedOut
        /// An SMS code was sent.
        case otpStarted
        /// The session is verified, by `kind`.
        case verified(by: Verification.Kind)
        /// A wrong one-time code, at `now`.
        case otpFailed(at: Int64)
    }

    /// Applies `change` to the stored session.
    package func apply(_ change: Change, on connection: any SQLConnection) throws {
        let (assignments, values): (String, [SQLValue]) =
            switch change {
            case .expires(let at): ("expires_at = ?", [.integer(at)])
            case .loggedOut: ("logged_out = 1", [])
            case .otpStarted: ("otp_started = 1", [])
            case .verified(let kind): ("verified = 1, verified_by = ?", [.text(kind.rawValue)])
            case .otpFailed(let at): ("otp_failures = otp_failures + 1, last_otp_failure_at = ?", [.integer(at)])
            }
        try connection.execute(
            "UPDATE consumer_sessions SET \(assignments) WHERE secret_hash = ?", values + [.text(secretHash)])
    }

    /// The wrong one-time codes sent to any of the consumer's sessions since `since`.
    package static func otpFailures(_ connection: any SQLConnection, consumerId: String, since: Int64) throws -> Int64 {
        try connection.query(
            """
            SELECT COALESCE(SUM(otp_failures), 0) AS failures FROM consumer_sessions
            WHERE consumer_id = ? AND last_otp_failure_at > ?
            """,
            [.text(consumerId), .integer(since)]
        ).first?.int("failures") ?? 0
    }

    /// The live (not logged out, not expired) session for `secret` in `projectId`.
    package static func find(_ connection: any SQLConnection, secret: String, projectId: String, now: Int64) throws
        -> ConsumerSession?
    {
        let hash = APIKeyRepository.secretHash(secret)
        guard
            let row = try connection.query(
                """
                SELECT * FROM consumer_sessions
                WHERE secret_hash = ? AND project_id = ? AND logged_out = 0 AND expires_at > ?
                """,
                [.text(hash), .text(projectId), .integer(now)]
            ).first
        else { return nil }
        let verifiedBy =
            try row.int("verified") == 0
            ? nil : Verification.Kind(rawValue: row.optionalString("verified_by") ?? "") ?? .sms
        return ConsumerSession(
            secret: secret, secretHash: hash, projectId: projectId, consumerId: try row.string("consumer_id"),
            linkAuthIntentId: row.optionalString("link_auth_intent_id"), verifiedBy: verifiedBy,
            otpStarted: try row.int("otp_started") != 0)
    }

    /// The session whose client secret is `secret` (what the request named; the edge reads it from
    /// `credentials[consumer_session_client_secret]` or the `Stripe-Consumer-Auth-Token` header); verified with
    /// the one-time code unless `verified` is false.
    package static func require(
        secret: String?, caller: StripeCaller, context: ServerContext, verified: Bool = true
    ) throws -> ConsumerSession {
        guard let secret, secret.utf8.count <= 128 else {
            throw OnrampError.refusal(
                "parameter_missing", "Missing credentials[consumer_session_client_secret].",
                parameter: "credentials[consumer_session_client_secret]")
        }
        let now = context.nowMilliseconds
        guard
            let session = try context.database.read({
                try find($0, secret: secret, projectId: caller.projectId, now: now)
            })
        else {
            throw OnrampError.refusal(
                "consumer_session_invalid", "The consumer session is invalid, expired or logged out.",
                kind: .unauthenticated)
        }
        guard !verified || session.verified else {
            throw OnrampError.refusal(
                "link_account_not_verified", "Verify the Link account with the one-time code first.", kind: .forbidden)
        }
        return session
    }
}

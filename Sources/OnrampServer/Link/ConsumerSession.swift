import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// A Link consumer session as the client SDK holds it (`consumer_session_client_secret`); verified
/// by OTP or by seamless sign-in. Stored under the secret's hash.
struct ConsumerSession: Sendable {
    /// Sessions last a day.
    static let lifetimeMilliseconds: Int64 = 86_400_000
    /// Wrong OTP codes allowed per consumer (over all their sessions) before confirmation locks.
    static let maximumOTPFailures: Int64 = 5
    /// The window in which wrong codes count: a fresh lookup does not reset the count.
    static let otpLockoutMilliseconds: Int64 = 900_000

    let secretHash: String
    let projectId: String
    let consumerId: String
    let linkAuthIntentId: String?
    let verified: Bool
    let otpStarted: Bool

    /// Creates a session and returns its client secret.
    static func create(
        _ connection: any SQLConnection, context: ServerContext, projectId: String, consumerId: String,
        linkAuthIntentId: String?, verified: Bool
    ) throws -> String {
        let secret = context.ids.id(prefix: IdPrefix.consumerSessionSecret, length: 40)
        let now = context.nowMilliseconds
        try connection.execute(
            """
            INSERT INTO consumer_sessions (secret_hash, project_id, consumer_id, link_auth_intent_id, verified,
                created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(APIKeyRepository.secretHash(secret)), .text(projectId), .text(consumerId),
                linkAuthIntentId.map(SQLValue.text) ?? .null, .integer(verified ? 1 : 0), .integer(now),
                .integer(now + lifetimeMilliseconds),
            ])
        return secret
    }

    /// The live (not logged out, not expired) session for `secret` in `projectId`.
    static func find(_ connection: any SQLConnection, secret: String, projectId: String, now: Int64) throws
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
        return ConsumerSession(
            secretHash: hash, projectId: projectId, consumerId: try row.string("consumer_id"),
            linkAuthIntentId: row.optionalString("link_auth_intent_id"), verified: try row.int("verified") != 0,
            otpStarted: try row.int("otp_started") != 0)
    }

    /// The session named by `credentials[consumer_session_client_secret]` in the body or query.
    static func require(
        _ request: HTTPRequest, body: JSONValue, caller: StripeCaller, context: ServerContext, verified: Bool = true
    ) throws -> ConsumerSession {
        let secret =
            body["credentials"]?["consumer_session_client_secret"]?.stringValue
            ?? request.queryValue("credentials[consumer_session_client_secret]")
        guard let secret, secret.utf8.count <= 128 else {
            throw StripeErrors.invalid(
                "parameter_missing", "Missing credentials[consumer_session_client_secret].",
                param: "credentials[consumer_session_client_secret]")
        }
        let now = context.nowMilliseconds
        guard
            let session = try context.database.read({
                try find($0, secret: secret, projectId: caller.projectId, now: now)
            })
        else {
            throw StripeErrors.authentication(
                "The consumer session is invalid, expired or logged out.", code: "consumer_session_invalid")
        }
        guard !verified || session.verified else {
            throw StripeErrors.invalid(
                "link_account_not_verified", "Verify the Link account with the one-time code first.", status: 403)
        }
        return session
    }

    /// `j***@example.com`.
    static func redacted(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@"), let first = email.first else { return "***" }
        return "\(first)***\(email[at...])"
    }
}

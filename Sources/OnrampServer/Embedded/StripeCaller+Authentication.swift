import HTTPServer
import OnrampCrypto
import OnrampServices
import OnrampStore
import OnrampWire

/// A Stripe-style request's caller, from its `Authorization` header.
extension StripeCaller {
    /// Resolves `Authorization: Bearer <key>` (or Basic with the key as user name, as `curl -u sk_test_…:`
    /// sends it). `allowPublishable` admits `pk_…` keys (client SDK routes).
    static func authenticate(
        _ request: HTTPRequest, database: any Database, allowPublishable: Bool, allowLinkSessionKey: Bool = false,
        now: Int64 = 0
    ) throws -> StripeCaller {
        guard let key = key(request.headers["Authorization"]) else {
            throw StripeErrors.authentication("You did not provide an API key. Use Authorization: Bearer sk_test_….")
        }
        if key.hasPrefix("lsk_") {
            guard allowLinkSessionKey else {
                throw StripeErrors.authentication("A link session key cannot be used for this call.")
            }
            return try linkSession(key, database: database, now: now)
        }
        guard key.utf8.count <= 256, key.hasPrefix("sk_") || key.hasPrefix("pk_") else {
            throw StripeErrors.authentication("Invalid API key provided.")
        }
        let token = OAuthTokens.wellFormedToken(request)
        // One read for the key with its project clock, and the presented token (one round trip on
        // PostgreSQL, with the read's BEGIN and COMMIT).
        let keyLookup = APIKeyRepository.lookupWithClockOffset(secret: key)
        let (found, tokenRecord) =
            if let token {
                try database.read(
                    keyLookup, OAuthTokenRepository.lookup(hash: APIKeyRepository.secretHash(token), kind: .access))
            } else {
                (try database.read(keyLookup), nil)
            }
        guard let (record, offset) = found, !record.disabled else {
            throw StripeErrors.authentication("Invalid API key provided.")
        }
        let presented = token.map { OAuthTokenLookup(token: $0, record: tokenRecord) }
        switch record.kind {
        case .stripeSecret:
            return StripeCaller(
                projectId: record.projectId, livemode: record.livemode, presentedOAuthToken: presented,
                clockOffsetMilliseconds: offset)
        case .stripePublishable where allowPublishable:
            return StripeCaller(
                projectId: record.projectId, livemode: record.livemode, publishableKey: key,
                presentedOAuthToken: presented, clockOffsetMilliseconds: offset)
        case .stripePublishable:
            throw HTTPError(
                status: 403, code: "secret_key_required", message: "This call needs your secret key (sk_…).",
                type: "invalid_request_error")
        default:
            throw StripeErrors.authentication("Invalid API key provided.")
        }
    }

    /// The caller a link session key stands for: the customer of its consumer session, while that session
    /// is verified and neither expired nor logged out.
    private static func linkSession(_ key: String, database: any Database, now: Int64) throws -> StripeCaller {
        guard key.utf8.count <= 64 else { throw StripeErrors.authentication("Invalid link session key provided.") }
        let customer = try database.read { connection -> CryptoCustomer? in
            guard
                let session = try KYCComplianceRepository(connection: connection).linkSession(
                    keyHash: APIKeyRepository.secretHash(key), now: now)
            else { return nil }
            return try CryptoCustomer.find(connection, consumerId: session.consumerId).flatMap {
                $0.projectId == session.projectId ? $0 : nil
            }
        }
        guard let customer else {
            throw StripeErrors.authentication(
                "The link session key is invalid, expired, or its consumer has no crypto customer yet.")
        }
        return StripeCaller(projectId: customer.projectId, livemode: customer.livemode, linkSessionCustomer: customer)
    }

    private static func key(_ header: String?) -> String? {
        guard let header else { return nil }
        if header.hasPrefix("Bearer ") { return String(header.dropFirst("Bearer ".count)) }
        guard header.hasPrefix("Basic "), header.utf8.count <= 512,
            let decoded = Base64.decode(String(header.dropFirst("Basic ".count))),
            let text = UTF8Text.string(decoded)
        else { return nil }
        return text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }
}

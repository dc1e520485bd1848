import HTTPServer
import OnrampCrypto
import OnrampServices
import OnrampStore
import OnrampWire

/// A Stripe-style request's caller, from its `Authorization` header.
extension StripeCaller {
    /// Resolves `Authorization: Bearer <key>` (or Basic with the key as user name, as `curl -u sk_test_…:`
    /// sends it). `allowPublishable` admits `pk_…` keys (client SDK routes). The key and a presented OAuth
    /// access token are read through the context's ``CallerCache``.
    static func authenticate(
        _ request: HTTPRequest, context: ServerContext, allowPublishable: Bool, allowLinkSessionKey: Bool = false
    ) throws -> StripeCaller {
        let database = context.database
        guard let key = key(request.headers["Authorization"]) else {
            throw StripeErrors.authentication("You did not provide an API key. Use Authorization: Bearer sk_test_….")
        }
        if key.hasPrefix("lsk_") {
            guard allowLinkSessionKey else {
                throw StripeErrors.authentication("A link session key cannot be used for this call.")
            }
            return try linkSession(key, database: database, now: context.realNowMilliseconds)
        }
        guard key.utf8.count <= 256, key.hasPrefix("sk_") || key.hasPrefix("pk_") else {
            throw StripeErrors.authentication("Invalid API key provided.")
        }
        let token = OAuthTokens.wellFormedToken(request)
        let (found, tokenRecord) = try lookUp(key: key, token: token, database: database, callers: context.callers)
        guard let record = found?.record, let offset = found?.clockOffset, !record.disabled else {
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
            throw StripeErrors.secretKeyRequired
        default:
            throw StripeErrors.authentication("Invalid API key provided.")
        }
    }

    /// The key with its project's clock offset, and the presented token's record, from the cache or else from
    /// one read (one round trip on PostgreSQL, with the read's BEGIN and COMMIT); what was read is cached.
    private static func lookUp(key: String, token: String?, database: any Database, callers: CallerCache) throws
        -> (KeyWithClock?, OAuthTokenRepository.Record?)
    {
        let keyHash = APIKeyRepository.secretHash(key)
        let tokenHash = token.map(APIKeyRepository.secretHash)
        let cachedKey = callers.value(.stripeKey, keyHash, as: KeyWithClock.self)
        let cachedToken = tokenHash.flatMap { callers.value(.accessToken, $0, as: OAuthTokenRepository.Record.self) }
        if let cachedKey, tokenHash == nil || cachedToken != nil { return (cachedKey, cachedToken) }
        let ticket = callers.ticket()
        let keyLookup = APIKeyRepository.lookupWithClockOffset(secretHash: keyHash)
        let (found, tokenRecord) =
            if let tokenHash {
                try database.read(keyLookup, OAuthTokenRepository.lookup(hash: tokenHash, kind: .access))
            } else {
                (try database.read(keyLookup), nil)
            }
        let key = found.map { KeyWithClock(record: $0.record, clockOffset: $0.clockOffset) }
        if let key { callers.store(key, .stripeKey, keyHash, after: ticket) }
        if let tokenHash, let tokenRecord { callers.store(tokenRecord, .accessToken, tokenHash, after: ticket) }
        return (key, tokenRecord)
    }

    /// A key as cached: its record and its project's test-clock offset.
    private struct KeyWithClock: Sendable {
        let record: APIKeyRecord
        let clockOffset: Int64
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
            return try CryptoCustomerRepository.find(connection, consumerId: session.consumerId).flatMap {
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

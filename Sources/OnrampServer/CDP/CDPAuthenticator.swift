import Foundation
import HTTPServer
import OnrampCrypto
import OnrampServices
import OnrampStore
import OnrampWire

/// Authenticates requests signed with a CDP API key JWT (`Authorization: Bearer <jwt>`): the key
/// named by `kid` must exist and be enabled, the signature must verify with its algorithm, `sub`
/// must equal `kid`, `iss` must be `cdp`, `aud` must be `cdp_service` or absent/null, `nbf`/`exp`
/// must hold within the skew, and `uris` must name this request (its host with or without the port:
/// Coinbase's demo backend signs the host name alone). A JWT for a read (`GET`, `HEAD`) may be used again
/// within its lifetime for the request it names, as Coinbase's `export JWT=…` flow and a poller of the
/// transactions API do; one for a write is good once (`uris` does not cover the body, so a captured JWT
/// must not carry a second, different write). With `singleUse`, reads are good once too.
///
/// A JWT is checked in real time (its `nbf` and `exp` are the caller's wall clock); what the request
/// then does for its project runs in the project's time (``acting(for:_:)``), so a test clock that
/// moved ahead expires the project's tokens, quotes and sessions as real time would.
struct CDPAuthenticator: Sendable {
    let database: any Database
    /// Keys with their parsed public keys, kept between requests (a revoked key is forgotten at once here).
    let callers: CallerCache
    /// Whether a JWT for a read is good for one request too (a write's always is).
    let singleUse: Bool
    /// The projects' test clocks (and the real clock the JWT is checked against).
    let clocks: TestClocks
    /// Allowed clock skew for `nbf`/`exp`, in seconds.
    let leeway: TimeInterval = 30
    /// The longest lifetime accepted, so nonces need only be remembered that long.
    let maximumLifetime: TimeInterval = 300

    /// Authenticates `request` and runs `body` with its project, in the project's time.
    func acting<T>(for request: HTTPRequest, _ body: (_ projectId: String) throws -> T) throws -> T {
        let projectId = try authenticate(request)
        return try clocks.bound(to: projectId) { try body(projectId) }
    }

    /// The project the request is authenticated for (checked in real time), or a 401.
    func authenticate(_ request: HTTPRequest) throws(HTTPError) -> String {
        let now = clocks.clock.now()
        guard let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer ") else {
            throw CDPErrors.unauthorized("Missing Authorization: Bearer <JWT>.")
        }
        let token = String(authorization.dropFirst("Bearer ".count))
        guard token.utf8.count <= 8192 else { throw CDPErrors.unauthorized("The token is too long.") }
        let verifier = JWTVerifier(
            keyForHeader: { header in header.keyID.flatMap { key(id: $0)?.verificationKey } }, issuer: "cdp",
            audience: .requiredOrAbsent(["cdp_service"]), leeway: leeway, requiresExpiration: true,
            predicates: [
                .init(name: "sub") { $0.claims.subject == $0.header.keyID },
                .init(name: "uris") { token in
                    Self.acceptableURIs(for: request).contains { expected in
                        token.claims.uris?.contains(expected) ?? false
                    }
                },
                // At most five minutes from its start; the verifier already refuses a start in the future.
                .init(name: "lifetime") { token in
                    guard let exp = token.claims.expiresAt else { return false }
                    let start = token.claims.notBefore ?? token.claims.issuedAt ?? now
                    return exp.timeIntervalSince(start) <= maximumLifetime
                },
            ])
        let verified: VerifiedJWT
        do {
            verified = try verifier.verify(token, at: now)
        } catch {
            throw CDPErrors.unauthorized("The JWT was refused: \(error).")
        }
        guard let keyId = verified.header.keyID, let record = key(id: keyId)?.record else {
            throw CDPErrors.unauthorized("Unknown API key.")
        }
        let isRead = request.method == "GET" || request.method == "HEAD"
        if singleUse || !isRead { try rememberNonce(verified, keyId: keyId, now: now) }
        RequestNotes.current?.projectId = record.projectId
        return record.projectId
    }

    /// The `uris` entries this request may carry: `METHOD host/path` with the Host header as sent, and
    /// with its port removed (a client behind a proxy, or one that signs the host name alone).
    static func acceptableURIs(for request: HTTPRequest) -> [String] {
        let host = request.headers["Host"] ?? ""
        var hosts = [host]
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]"),
            host[host.index(after: colon)...].allSatisfy(\.isNumber)
        {
            hosts.append(String(host[..<colon]))
        }
        return hosts.map { CDPAPIKey.uri(method: request.method, host: $0, path: request.path) }
    }

    private func rememberNonce(_ token: VerifiedJWT, keyId: String, now: Date) throws(HTTPError) {
        guard let nonce = token.header.nonce, !nonce.isEmpty, nonce.count <= 128 else {
            throw CDPErrors.unauthorized("The JWT header needs a nonce.")
        }
        let expiry = Timestamp.milliseconds((token.claims.expiresAt ?? now).addingTimeInterval(leeway))
        do {
            // Expired nonces are swept by the janitor, not on every request.
            try database.transaction { connection in
                try APIKeyRepository(connection: connection).recordNonce(nonce, keyId: keyId, expiresAt: expiry)
            }
        } catch let error as StoreError where error.code == .constraintViolation {
            throw CDPErrors.unauthorized("This JWT nonce was already used.")
        } catch {
            throw CDPErrors.keyStoreUnavailable
        }
    }

}

/// A CDP key as the cache keeps it: its record (enabled or not) and its public key, parsed once.
private struct CDPKey: Sendable {
    let record: APIKeyRecord
    let verificationKey: JWTVerificationKey?

    init(_ record: APIKeyRecord) {
        self.record = record
        guard !record.disabled, let publicKey = record.publicKey else {
            verificationKey = nil
            return
        }
        switch record.kind {
        case .cdpES256:
            verificationKey = (try? P256.PublicKey(pemRepresentation: publicKey)).map(JWTVerificationKey.p256)
        case .cdpEd25519:
            verificationKey = Base64.decode(publicKey).flatMap { try? Ed25519.PublicKey(rawRepresentation: $0) }.map(
                JWTVerificationKey.ed25519)
        default: verificationKey = nil
        }
    }
}

extension CDPAuthenticator {
    /// Key `id` from the cache or the store; nil when there is none or it is disabled.
    fileprivate func key(id: String) -> CDPKey? {
        let key = callers.value(.cdpKey, id) {
            try? database.read { try APIKeyRepository(connection: $0).find(id: id) }.map(CDPKey.init)
        }
        return key?.record.disabled == false ? key : nil
    }
}

import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices
import OnrampStore
import OnrampWire

/// Who may use the sandbox console: the operator holding its token (printed by `onramp serve` at start,
/// or set with `--console-token`), from a loopback address unless told otherwise. The token arrives as
/// `Authorization: Bearer`, or signs in once (`/console/login`) for a cookie holding a random secret of that
/// sign-in alone, kept server-side as its hash (``ConsoleSessionRepository``): signing out ends it, and a new
/// token ends every sign-in made with the old one. Every action is a POST that carries the form's CSRF value
/// (an HMAC of the token) and no cross-site origin.
struct ConsoleAccess: Sendable {
    /// The operator token.
    let token: String
    /// Whether addresses other than loopback may use the console.
    let allowsRemote: Bool
    /// Where the sign-ins are kept.
    let database: any Database
    /// Real time, which sign-ins expire in.
    let clock: any OnrampCore.Clock
    let ids: IdGenerator

    static let cookieName = "onramp_console"

    /// The value every action form carries.
    var csrfValue: String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(token.utf8), message: Array("console-csrf".utf8)))
    }

    /// Refuses a caller without the token (401, nothing of the console rendered) or from a remote
    /// address when the console is loopback-only (403).
    func authorize(_ request: HTTPRequest) throws(ConsoleRefusal) {
        guard allowsRemote || Self.isLoopback(request.remoteAddress) else {
            throw ConsoleRefusal.remoteClient
        }
        guard Self.presentedBearer(request).map(matches) == true || presentedCookie(request) else {
            throw ConsoleRefusal.tokenRequired(
                "Open the console with its operator token: /console/login?token=… (printed by onramp serve).")
        }
    }

    /// Refuses a caller of the JSON routes without the token as `Authorization: Bearer` (401; a sign-in
    /// cookie does not count) or from a remote address when the console is loopback-only (403).
    func authorizeBearer(_ request: HTTPRequest) throws(ConsoleRefusal) {
        guard allowsRemote || Self.isLoopback(request.remoteAddress) else {
            throw ConsoleRefusal.remoteClient
        }
        guard Self.presentedBearer(request).map(matches) == true else {
            throw ConsoleRefusal.tokenRequired("Send the console's operator token as Authorization: Bearer.")
        }
    }

    /// Refuses an action sent from another site or without the form's CSRF value (403).
    func authorizeAction(_ request: HTTPRequest, form: JSONValue) throws(ConsoleRefusal) {
        try authorize(request)
        if request.headers["Sec-Fetch-Site"]?.lowercased() == "cross-site" || !Self.sameOrigin(request) {
            throw ConsoleRefusal.crossSite
        }
        let presented = Array((form["csrf"]?.stringValue ?? "").utf8)
        guard ConstantTime.equals(presented, Array(csrfValue.utf8)) else {
            throw ConsoleRefusal.csrfMismatch
        }
    }

    /// Whether `presented` is the token, compared in constant time.
    func matches(_ presented: String) -> Bool {
        ConstantTime.equals(
            SHA256.hash(Array(presented.utf8)), SHA256.hash(Array(token.utf8)))
    }

    /// What the sign-ins made with this token are stored with: an HMAC of the token, never the token.
    private var tokenFingerprint: String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(token.utf8), message: Array("console-session".utf8)))
    }

    /// Signs the operator in: stores a new sign-in and returns the `Set-Cookie` value holding its secret
    /// (random, not derived from the token: cookies are shared by every port of a host, so another local
    /// service may see it, and it must not be usable as the bearer token there; HttpOnly, SameSite=Strict).
    func signIn() throws -> String {
        let secret = ids.base62(length: 43)
        try database.transaction {
            try ConsoleSessionRepository(connection: $0).insert(
                secretHash: APIKeyRepository.secretHash(secret), tokenFingerprint: tokenFingerprint, now: now)
        }
        return "\(Self.cookieName)=\(secret); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Ends the sign-in whose cookie `request` carries.
    func signOut(_ request: HTTPRequest) throws {
        guard let secret = Self.presentedSecret(request) else { return }
        try database.transaction {
            try ConsoleSessionRepository(connection: $0).delete(secretHash: APIKeyRepository.secretHash(secret))
        }
    }

    private var now: Int64 { Timestamp.milliseconds(clock.now()) }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }

    private static func presentedBearer(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count))
        return token.isEmpty ? nil : token
    }

    /// Whether the request carries the cookie of a sign-in that is still on, made with this token (looked up
    /// by the secret's hash, so the lookup reveals nothing of the secret's bytes).
    private func presentedCookie(_ request: HTTPRequest) -> Bool {
        guard let secret = Self.presentedSecret(request), secret.utf8.count <= 64 else { return false }
        let hash = APIKeyRepository.secretHash(secret)
        let fingerprint = tokenFingerprint
        let now = self.now
        return
            (try? database.read {
                try ConsoleSessionRepository(connection: $0).isActive(
                    secretHash: hash, tokenFingerprint: fingerprint, now: now)
            }) ?? false
    }

    /// The sign-in secret of the request's cookie, if it has one.
    private static func presentedSecret(_ request: HTTPRequest) -> String? {
        for part in (request.headers["Cookie"] ?? "").split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == Self.cookieName, !pair[1].isEmpty { return String(pair[1]) }
        }
        return nil
    }

    /// An `Origin` header, when sent, names this server (the `Host` the request was sent to).
    private static func sameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers["Origin"] else { return true }
        guard let host = request.headers["Host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}

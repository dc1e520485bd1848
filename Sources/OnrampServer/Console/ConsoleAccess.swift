import Foundation
import HTTPServer
import OnrampCrypto
import OnrampWire

/// Who may use the sandbox console: the operator holding its token (printed by `onramp serve` at start,
/// or set with `--console-token`), from a loopback address unless told otherwise. The token arrives as
/// a cookie after the first visit (`/console/login`) or as `Authorization: Bearer`. Every action is a
/// POST that carries the form's CSRF value (an HMAC of the token) and no cross-site origin.
struct ConsoleAccess: Sendable {
    /// The operator token.
    let token: String
    /// Whether addresses other than loopback may use the console.
    let allowsRemote: Bool

    static let cookieName = "onramp_console"

    /// The value every action form carries.
    var csrfValue: String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(token.utf8), message: Array("console-csrf".utf8)))
    }

    /// Refuses a caller without the token (401, nothing of the console rendered) or from a remote
    /// address when the console is loopback-only (403).
    func authorize(_ request: HTTPRequest) throws(HTTPError) {
        guard allowsRemote || Self.isLoopback(request.remoteAddress) else {
            throw HTTPError(status: 403, code: "console_remote", message: "The console answers loopback clients only.")
        }
        guard Self.presentedBearer(request).map(matches) == true || presentedCookie(request) else {
            throw HTTPError(
                status: 401, code: "console_token_required",
                message: "Open the console with its operator token: /console/login?token=… (printed by onramp serve).")
        }
    }

    /// Refuses an action sent from another site or without the form's CSRF value (403).
    func authorizeAction(_ request: HTTPRequest, form: JSONValue) throws(HTTPError) {
        try authorize(request)
        if request.headers["Sec-Fetch-Site"]?.lowercased() == "cross-site" || !Self.sameOrigin(request) {
            throw HTTPError(status: 403, code: "console_cross_site", message: "Cross-site requests are refused.")
        }
        let presented = Array((form["csrf"]?.stringValue ?? "").utf8)
        guard ConstantTime.equals(presented, Array(csrfValue.utf8)) else {
            throw HTTPError(status: 403, code: "console_csrf", message: "The form's CSRF value is missing or wrong.")
        }
    }

    /// Whether `presented` is the token, compared in constant time.
    func matches(_ presented: String) -> Bool {
        ConstantTime.equals(
            SHA256.hash(Array(presented.utf8)), SHA256.hash(Array(token.utf8)))
    }

    /// The cookie's value: an HMAC of the token, not the token — cookies are shared by every port of a
    /// host, so another local service may see it, and it must not be usable as the bearer token there.
    var cookieValue: String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(token.utf8), message: Array("console-session".utf8)))
    }

    /// The `Set-Cookie` value that keeps the operator signed in (HttpOnly, SameSite=Strict).
    var sessionCookie: String {
        "\(Self.cookieName)=\(cookieValue); Path=/; HttpOnly; SameSite=Strict"
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }

    private static func presentedBearer(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count))
        return token.isEmpty ? nil : token
    }

    /// Whether the request carries the sign-in cookie (compared in constant time).
    private func presentedCookie(_ request: HTTPRequest) -> Bool {
        for part in (request.headers["Cookie"] ?? "").split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == Self.cookieName {
                return ConstantTime.equals(Array(pair[1].utf8), Array(cookieValue.utf8))
            }
        }
        return false
    }

    /// An `Origin` header, when sent, names this server (the `Host` the request was sent to).
    private static func sameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers["Origin"] else { return true }
        guard let host = request.headers["Host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}

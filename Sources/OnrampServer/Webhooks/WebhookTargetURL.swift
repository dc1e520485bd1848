import Foundation
import HTTPServer

/// The rule for delivery targets: `https`, or `http` only to `127.0.0.1`, `localhost` or `[::1]` (local
/// development, as the contract allows). An `https` target may not name a private, link-local
/// (cloud metadata at 169.254.169.254) or unspecified address literally, nor carry credentials, so a
/// tenant cannot aim deliveries at the operator's internal network by address; and a delivery is sent
/// only over a connection whose address is not internal (``allowsConnection(to:)``, checked by the
/// HTTP client on the connection it made), so a name that resolves, or is re-pointed, there is refused too.
enum WebhookTargetURL {
    /// `text` when it is an acceptable target; a 400 naming `param` otherwise.
    static func validate(_ text: String, param: String, code: String) throws(HTTPError) -> String {
        guard text.utf8.count <= 2048, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else {
            throw HTTPError(status: 400, code: code, message: "\(param) must be an absolute URL.", param: param)
        }
        guard components.user == nil, components.password == nil else {
            throw HTTPError(status: 400, code: code, message: "\(param) must not carry credentials.", param: param)
        }
        switch scheme {
        case "https" where isInternalAddressLiteral(host):
            throw HTTPError(
                status: 400, code: code, message: "\(param) must not point at a private or link-local address.",
                param: param)
        case "https":
            return text
        case "http" where ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host):
            return text
        default:
            throw HTTPError(
                status: 400, code: code,
                message: "\(param) must use https (http is allowed only for 127.0.0.1 and localhost).", param: param)
        }
    }

    /// Whether `host` is an IPv4 or IPv6 literal in a private, shared, link-local, unspecified or
    /// unique-local range (loopback stays allowed for local development).
    static func isInternalAddressLiteral(_ host: String) -> Bool {
        // Asked for every delivery (on the HTTP client's thread): the standard library only, no Foundation.
        var bare = Substring(host)
        while bare.first == "[" { bare = bare.dropFirst() }
        while bare.last == "]" { bare = bare.dropLast() }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        if octets.count == 4 && bare.split(separator: ".", omittingEmptySubsequences: false).count == 4 {
            switch (octets[0], octets[1]) {
            case (10, _), (0, _), (169, 254), (192, 168), (100, 64...127), (172, 16...31): return true
            default: return false
            }
        }
        guard bare.contains(":") else { return false }
        let lowered = bare.lowercased()
        return lowered == "::" || lowered.hasPrefix("fe8") || lowered.hasPrefix("fe9") || lowered.hasPrefix("fea")
            || lowered.hasPrefix("feb") || lowered.hasPrefix("fc") || lowered.hasPrefix("fd")
            || lowered.hasPrefix("::ffff:")
    }

    /// Whether a delivery may go over a connection to `address` (numeric text): not to an internal one
    /// (``isInternalAddressLiteral(_:)``), whatever name led there. The HTTP client asks once the
    /// connection stands, before it sends the request, so there is no gap between check and use.
    static func allowsConnection(to address: String) -> Bool {
        !isInternalAddressLiteral(address)
    }
}

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
        // Asked for every delivery (on the HTTP client's thread): read as bytes, nothing allocated for
        // an IPv4 address.
        var bare = host.utf8[...]
        while bare.first == UInt8(ascii: "[") { bare = bare.dropFirst() }
        while bare.last == UInt8(ascii: "]") { bare = bare.dropLast() }
        if let octets = ipv4Octets(bare) {
            switch (octets.0, octets.1) {
            case (10, _), (0, _), (169, 254), (192, 168), (100, 64...127), (172, 16...31): return true
            default: return false
            }
        }
        guard bare.contains(UInt8(ascii: ":")) else { return false }
        let lowered = String(decoding: bare.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return lowered == "::" || lowered.hasPrefix("fe8") || lowered.hasPrefix("fe9") || lowered.hasPrefix("fea")
            || lowered.hasPrefix("feb") || lowered.hasPrefix("fc") || lowered.hasPrefix("fd")
            || lowered.hasPrefix("::ffff:")
    }

    /// The first two octets of a dotted-quad IPv4 literal (four parts of decimal digits, each at most
    /// 255); nil for anything else.
    private static func ipv4Octets(_ text: Substring.UTF8View) -> (UInt8, UInt8)? {
        var (first, second) = (0, 0)
        var dots = 0
        var value = -1
        for byte in text {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = max(value, 0) * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= 255 else { return nil }
            case UInt8(ascii: "."):
                guard value >= 0, dots < 3 else { return nil }
                if dots == 0 { first = value } else if dots == 1 { second = value }
                dots += 1
                value = -1
            default: return nil
            }
        }
        guard value >= 0, dots == 3 else { return nil }
        return (UInt8(first), UInt8(second))
    }

    /// Whether a delivery may go over a connection to `address` (numeric text): not to an internal one
    /// (``isInternalAddressLiteral(_:)``), whatever name led there. The HTTP client asks once the
    /// connection stands, before it sends the request, so there is no gap between check and use.
    static func allowsConnection(to address: String) -> Bool {
        !isInternalAddressLiteral(address)
    }
}

import Foundation
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// The rule for delivery targets: `https`, or `http` only to `127.0.0.1`, `localhost` or `[::1]` (local
/// development, as the contract allows). An `https` target may not name a private, link-local
/// (cloud metadata at 169.254.169.254) or unspecified address literally, nor carry credentials, so a
/// tenant cannot aim deliveries at the operator's internal network by address; the dispatcher also
/// resolves host names before each delivery and refuses those that resolve there
/// (``resolvesToInternalAddress(_:)``). A name could still be re-pointed between that check and the
/// connection, so an operator exposing the server to untrusted tenants should also egress-filter.
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
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        if octets.count == 4 && bare.split(separator: ".").count == 4 {
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

    /// Whether any address `host` resolves to is internal (see ``isInternalAddressLiteral(_:)``). A
    /// name that does not resolve is left to the HTTP client, which then fails on its own.
    static func resolvesToInternalAddress(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                current.pointee.ai_addr, current.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0,
                NI_NUMERICHOST) == 0,
                isInternalAddressLiteral(
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            {
                return true
            }
            entry = current.pointee.ai_next
        }
        return false
    }
}

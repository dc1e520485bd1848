import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which addresses webhook deliveries may reach, decided the same way when an endpoint is created (for a host
/// written as an address, in any spelling `inet_aton` or `inet_pton` reads) and when a delivery connects
/// (for the address a name resolved to, before the socket is opened, ``allowsConnection(to:)``).
///
/// - Link-local and metadata (169.254/16, fe80::/10), unspecified (0.0.0.0/8, ::), multicast, broadcast and
///   reserved addresses are never reached.
/// - Private ones (RFC 1918, CGNAT 100.64/10, ULA fc00::/7) only when the operator allows them
///   (`--allow-private-webhook-targets`).
/// - Loopback is a local target: allowed when the server listens on loopback alone (a developer's machine,
///   where `onramp listen` and local receivers need it), refused when it listens on another address (a
///   sandbox shared by a team, where a tenant could read the server's own loopback services) unless the
///   operator allows it (`--allow-local-webhook-targets`).
public struct WebhookTargetPolicy: Sendable, Equatable {
    /// Whether private (RFC 1918, CGNAT, ULA) addresses may be reached.
    public var allowsPrivate: Bool
    /// Whether loopback addresses (and `localhost`) may be reached.
    public var allowsLoopback: Bool

    /// A policy; the default suits a server listening on loopback alone.
    public init(allowsPrivate: Bool = false, allowsLoopback: Bool = true) {
        self.allowsPrivate = allowsPrivate
        self.allowsLoopback = allowsLoopback
    }

    /// The policy of a server listening on `host`: loopback targets only when `host` is a loopback address
    /// or `allowLocal`, private ones only when `allowPrivate`.
    public static func forServer(listeningOn host: String, allowLocal: Bool, allowPrivate: Bool)
        -> WebhookTargetPolicy
    {
        let listensOnLoopback = host == "localhost" || TargetAddress(literal: host)?.kind == .loopback
        return WebhookTargetPolicy(allowsPrivate: allowPrivate, allowsLoopback: allowLocal || listensOnLoopback)
    }

    /// Why `host` (as a URL names it) may not be a target; nil when it may, or when it is a name whose
    /// addresses are checked on each delivery.
    package func refusal(host: String) -> String? {
        let lowered = host.lowercased()
        if Self.isLocalName(lowered) {
            return allowsLoopback ? nil : Self.loopbackRefusal
        }
        guard let address = TargetAddress(literal: lowered) else { return nil }
        return refusal(address.kind)
    }

    /// Whether `host` (lower case) is a name that always means this machine: `localhost` and its subdomains
    /// (RFC 6761).
    package static func isLocalName(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost")
    }

    /// Whether a delivery may open a connection to `address` (numeric text, as the resolver gave it).
    package func allowsConnection(to address: String) -> Bool {
        guard let parsed = TargetAddress(literal: address) else { return false }
        return refusal(parsed.kind) == nil
    }

    /// Whether a delivery may open a connection to the raw socket address `bytes` of `family`.
    package func allowsConnection(family: Int32, bytes: [UInt8]) -> Bool {
        guard let address = TargetAddress(family: family, bytes: bytes) else { return false }
        return refusal(address.kind) == nil
    }

    private func refusal(_ kind: TargetAddress.Kind) -> String? {
        switch kind {
        case .public: nil
        case .loopback: allowsLoopback ? nil : Self.loopbackRefusal
        case .private:
            allowsPrivate
                ? nil : "a private address, which this server reaches only with --allow-private-webhook-targets"
        case .forbidden: "a link-local, metadata, unspecified, multicast, broadcast or reserved address"
        }
    }

    private static let loopbackRefusal =
        "a loopback address, which a server listening beyond loopback reaches only with --allow-local-webhook-targets"
}

/// An IPv4 or IPv6 address and what kind of place it reaches.
package struct TargetAddress: Equatable {
    /// What kind of place an address reaches.
    package enum Kind: Equatable {
        case `public`
        case loopback
        case `private`
        case forbidden
    }

    /// 4 bytes (IPv4) or 16 (IPv6), network order.
    package let bytes: [UInt8]

    /// An address written as text: IPv4 in every form `inet_aton` accepts (one to four parts, each decimal,
    /// octal with a leading `0` or hex with `0x`: `2852039166`, `0xa9fea9fe`, `0251.0376.0251.0376`,
    /// `10.1`), or IPv6 as `inet_pton` reads it (brackets and a zone allowed); nil for anything else.
    package init?(literal text: String) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if let zone = host.firstIndex(of: "%") { host = host[..<zone] }
        if let v4 = Self.inetAton(host) {
            bytes = v4
        } else if host.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host), &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        } else {
            return nil
        }
    }

    /// An address as a socket address carries it.
    package init?(family: Int32, bytes: [UInt8]) {
        guard (family == AF_INET && bytes.count == 4) || (family == AF_INET6 && bytes.count == 16) else {
            return nil
        }
        self.bytes = bytes
    }

    /// IPv4 as `inet_aton(3)` parses it: the last part fills the bytes the earlier ones leave.
    package static func inetAton(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = number(part), value <= UInt64(UInt32.max) else { return nil }
            values.append(value)
        }
        for value in values.dropLast() where value > 255 { return nil }
        let lastBytes = 5 - values.count
        guard values[values.count - 1] < (UInt64(1) << (8 * UInt64(lastBytes))) else { return nil }
        var address: UInt64 = 0
        for value in values.dropLast() { address = address << 8 | value }
        address = address << (8 * UInt64(lastBytes)) | values[values.count - 1]
        return (0..<4).map { UInt8(truncatingIfNeeded: address >> (8 * UInt64(3 - $0))) }
    }

    /// One part: `0x…` hex, `0…` octal, else decimal; nil for an empty part, a bad digit or overflow.
    private static func number(_ part: Substring) -> UInt64? {
        let lowered = part.lowercased()
        let (digits, radix): (Substring, Int) =
            if lowered.hasPrefix("0x") {
                (Substring(lowered.dropFirst(2)), 16)
            } else if lowered.count > 1, lowered.hasPrefix("0") {
                (Substring(lowered.dropFirst()), 8)
            } else {
                (Substring(lowered), 10)
            }
        guard !digits.isEmpty else { return nil }
        guard digits.count <= 32 else { return nil }
        return UInt64(digits, radix: radix)
    }

    package var kind: Kind {
        bytes.count == 4 ? Self.kind(v4: bytes) : kindV6
    }

    private static func kind(v4 b: [UInt8]) -> Kind {
        switch (b[0], b[1]) {
        case (127, _): .loopback
        case (0, _), (169, 254), (224...255, _): .forbidden
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): .private
        default: .public
        }
    }

    private var kindV6: Kind {
        let b = bytes
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? .loopback : .forbidden }
        // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses reach their IPv4 address.
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Self.kind(v4: Array(b[12...])) }
        if b[0..<12].allSatisfy({ $0 == 0 }) { return Self.kind(v4: Array(b[12...])) }
        // NAT64 (64:ff9b::/96) reaches the IPv4 address it embeds.
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B, b[4..<12].allSatisfy({ $0 == 0 }) {
            return Self.kind(v4: Array(b[12...]))
        }
        if b[0] == 0xFF { return .forbidden }  // multicast
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .forbidden }  // link-local fe80::/10
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .private }  // site-local fec0::/10 (deprecated)
        if b[0] & 0xFE == 0xFC { return .private }  // unique local fc00::/7
        return .public
    }
}

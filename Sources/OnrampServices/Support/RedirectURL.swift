import Foundation
import OnrampWire

/// Builds the partner's redirect: the outcome as query items added to `redirectUrl`, before any
/// `#fragment` (after it they would never reach the partner's server).
package enum RedirectURL {
    /// Whether `url` is written only with RFC 3986's characters (unreserved, reserved, and `%` followed by
    /// two hex digits): no controls, spaces, quotes, `<`, `>`, backslashes or non-ASCII, so that it can
    /// go into a `Location` header and a page as it is.
    package static func isWellFormed(_ url: String) -> Bool {
        var utf8 = url.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = utf8.next(), let low = utf8.next(), isHexDigit(high), isHexDigit(low) else {
                    return false
                }
                continue
            }
            guard allowed[Int(byte)] else { return false }
        }
        return true
    }

    /// RFC 3986's characters other than `%`, as a table indexed by byte.
    private static let allowed: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// The host of an `https` URL without user information, or nil. The common form (`https://` in
    /// lower case, then a host of letters, digits, `-` and `.`, then `/`, `?`, `#` or the end) is read
    /// directly; anything else (a port, user information, an IP literal, escapes, a scheme in capitals)
    /// goes through Foundation's RFC 3986 parser, which reads the common form the same way.
    package static func httpsHost(_ url: String) -> String? {
        let utf8 = url.utf8
        let prefix = "https://".utf8
        if utf8.starts(with: prefix) {
            let authorityStart = utf8.index(utf8.startIndex, offsetBy: prefix.count)
            var end = authorityStart
            var plain = true
            while end < utf8.endIndex {
                let byte = utf8[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if !hostCharacter[Int(byte)] {
                    plain = false
                    break
                }
                end = utf8.index(after: end)
            }
            if plain && end > authorityStart { return String(Substring(utf8[authorityStart..<end])) }
        }
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil
        else { return nil }
        return host
    }

    /// Letters, digits, `-` and `.`: a registered name as written, with nothing to decode or split.
    private static let hostCharacter: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.".utf8 { table[Int(byte)] = true }
        return table
    }()

    package static func appending(_ items: [(String, String)], to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let query = items.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + url[fragmentStart...]
    }
}

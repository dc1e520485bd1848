import HTTPServer
import OnrampWire

/// Builds the partner's redirect: the outcome as query items added to `redirectUrl`, before any
/// `#fragment` (after it they would never reach the partner's server).
enum RedirectURL {
    /// Whether `url` is written only with RFC 3986's characters (unreserved, reserved, and `%` followed by
    /// two hex digits): no controls, spaces, quotes, `<`, `>`, backslashes or non-ASCII, so that it can
    /// go into a `Location` header and a page as it is.
    static func isWellFormed(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static let allowed = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    static func appending(_ items: [(String, String)], to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let query = items.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + url[fragmentStart...]
    }
}

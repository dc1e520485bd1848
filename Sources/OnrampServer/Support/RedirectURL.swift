import HTTPServer

/// Builds the partner's redirect: the outcome as query items added to `redirectUrl`, before any
/// `#fragment` (after it they would never reach the partner's server).
enum RedirectURL {
    static func appending(_ items: [(String, String)], to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let query = items.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + url[fragmentStart...]
    }
}

import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire

/// Plays the user's browser on the hosted handoff page over real HTTP: opens `onrampUrl`, then
/// submits Confirm or Cancel and returns the redirect (the 303 `Location`).
struct HandoffBrowser {
    let port: Int

    /// The page as served.
    func open(_ onrampURL: String) throws -> RawHTTPClient.Response {
        let url = URLComponents(string: onrampURL)!
        return try RawHTTPClient(port: port).request("GET", url.path + "?" + (url.percentEncodedQuery ?? ""))
    }

    /// Opens the page and presses `action` (`confirm` or `cancel`); returns the redirect URL.
    func complete(_ onrampURL: String, action: String) throws -> (status: Int, location: String?) {
        let page = try open(onrampURL)
        guard page.status == 200, let token = Self.hiddenValue("sessionToken", in: page.text),
            let secret = Self.hiddenValue("pageSecret", in: page.text)
        else { return (page.status, nil) }
        return try submit(token: token, secret: secret, action: action)
    }

    /// Submits the page's form.
    func submit(token: String, secret: String, action: String) throws -> (status: Int, location: String?) {
        let form =
            "sessionToken=\(PercentEncoding.encode(token))&pageSecret=\(PercentEncoding.encode(secret))&action=\(action)"
        let response = try RawHTTPClient(port: port).request(
            "POST", "/onramp/app2app", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(form.utf8))
        return (response.status, response.headers["location"])
    }

    static func hiddenValue(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The query items of a redirect URL.
    static func query(_ url: String) -> [String: String] {
        Dictionary(
            (URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { a, _ in a })
    }
}

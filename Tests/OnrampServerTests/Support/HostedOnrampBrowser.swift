import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire

/// Plays the user's browser on the hosted onramp page over real HTTP: opens the URL, then posts
/// the page's form (its hidden fields, plus what the user typed) with a button's action.
struct HostedOnrampBrowser {
    let port: Int

    /// A page as served, with its hidden form fields.
    struct Page {
        let response: RawHTTPClient.Response
        var status: Int { response.status }
        var text: String { response.text }
        var location: String? { response.headers["location"] }

        /// `name="…" value="…"` pairs of the page's hidden inputs, in page order.
        var hiddenFields: [(String, String)] {
            text.components(separatedBy: "<input type=\"hidden\" ").dropFirst().compactMap { chunk in
                guard let name = Self.attribute("name", in: chunk), let value = Self.attribute("value", in: chunk)
                else { return nil }
                return (name, Self.unescape(value))
            }
        }

        /// The `<option>` labels of the select called `name`.
        func options(of name: String) -> [String] {
            guard let start = text.range(of: "<select id=\"\(name)\" name=\"\(name)\">"),
                let end = text.range(of: "</select>", range: start.upperBound..<text.endIndex)
            else { return [] }
            return text[start.upperBound..<end.lowerBound].components(separatedBy: "</option>").compactMap { chunk in
                chunk.range(of: ">").map { String(chunk[$0.upperBound...]) }.flatMap { $0.isEmpty ? nil : $0 }
            }
        }

        private static func attribute(_ name: String, in chunk: String) -> String? {
            guard let range = chunk.range(of: "\(name)=\"") else { return nil }
            let rest = chunk[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }

        private static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    func open(_ url: String) throws -> Page {
        let components = URLComponents(string: url)!
        let target = components.path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        return Page(response: try RawHTTPClient(port: port).request("GET", target))
    }

    /// Posts `page`'s hidden fields with `fields` replacing or adding values, and `action`.
    func submit(_ page: Page, action: String, fields: [(String, String)] = []) throws -> Page {
        var form = page.hiddenFields.filter { hidden in !fields.contains { $0.0 == hidden.0 } }
        form += fields
        form.append(("action", action))
        let body = form.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        return Page(
            response: try RawHTTPClient(port: port).request(
                "POST", "/buy/select-asset", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(body.utf8)))
    }
}

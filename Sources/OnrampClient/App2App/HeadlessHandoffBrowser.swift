import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plays the user on the sandbox server's hosted handoff page, over HTTP: opens `onrampUrl`, presses
/// Confirm or Cancel, and returns the redirect the app would receive. Works on the App2App handoff and on a
/// one-click hosted onramp URL (which opens on its preview). For Linux, CI and the demo; on a device the
/// onramp app or the browser does this.
public struct HeadlessHandoffBrowser: Sendable {
    /// The user's choice on the page.
    public enum Action: String, Sendable {
        /// Buy.
        case confirm
        /// Leave before buying.
        case cancel
    }

    private let transport: any HTTPTransport

    /// Creates a browser.
    public init(transport: any HTTPTransport = URLSessionTransport()) {
        self.transport = transport
    }

    /// Opens the page, submits `action`, and returns the `Location` of the answer (the redirect URL).
    public func complete(_ onrampURL: URL, action: Action) async throws -> URL {
        let page = try await transport.request("GET", onrampURL)
        if let refresh = Self.refreshTarget(page.text), page.status == 410 { return refresh }
        let fields = Self.hiddenFields(in: page.text)
        guard page.status == 200, fields.contains(where: { $0.0 == "pageSecret" }),
            var components = URLComponents(url: onrampURL, resolvingAgainstBaseURL: false)
        else { throw App2AppError(.unexpectedResponse, developer: "The handoff page answered \(page.status).") }
        components.query = nil
        let answer = try await transport.form("POST", components.url!, fields + [("action", action.rawValue)])
        guard answer.status == 303, let location = answer.headers["location"], let url = URL(string: location) else {
            throw App2AppError(.unexpectedResponse, developer: "The handoff answered \(answer.status), no redirect.")
        }
        return url
    }

    /// The page form's hidden inputs (session token, page secret and, on the hosted onramp, the choices).
    static func hiddenFields(in html: String) -> [(String, String)] {
        html.components(separatedBy: "<input type=\"hidden\" name=\"").dropFirst().compactMap { chunk in
            guard let nameEnd = chunk.firstIndex(of: "\""),
                let valueStart = chunk.range(of: "value=\"")?.upperBound,
                let valueEnd = chunk[valueStart...].firstIndex(of: "\"")
            else { return nil }
            return (String(chunk[..<nameEnd]), unescape(String(chunk[valueStart..<valueEnd])))
        }
    }

    static func refreshTarget(_ html: String) -> URL? {
        guard let range = html.range(of: "url=") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").flatMap { URL(string: unescape(String(rest[..<$0]))) }
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

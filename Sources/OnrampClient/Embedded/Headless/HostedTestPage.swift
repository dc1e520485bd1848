import Foundation

/// Submits a sandbox hosted test page (identity verification, 3-D Secure) the way a browser does: the page's
/// `session` and `token` come from its URL, the choice is the `outcome` button.
enum HostedTestPage {
    static func submit(_ url: URL, outcome: String, transport: any HTTPTransport) async throws {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "Not a page URL: \(url).")
        }
        let query = components.queryItems ?? []
        func value(_ name: String) -> String { query.first { $0.name == name }?.value ?? "" }
        let page = try await transport.request("GET", url)
        guard page.status == 200 else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The test page answered \(page.status).")
        }
        components.query = nil
        let answer = try await transport.form(
            "POST", components.url!, [("session", value("session")), ("token", value("token")), ("outcome", outcome)])
        guard answer.status == 200 else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The test page refused the form: \(answer.status).")
        }
    }
}

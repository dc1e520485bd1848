import HTTPServer
import OnrampStore

/// The test-mode 3-D Secure challenge page (plain forms, no JavaScript): Complete or Fail. The
/// result is recorded on the session; the next checkout call charges (or declines) accordingly.
struct HostedTestPages: Sendable {
    static let threeDSPath = "/embedded/test/3ds"

    let context: ServerContext

    func register(on router: inout Router) {
        router.add("GET", Self.threeDSPath, Operations.showThreeDSecurePage) { request in try showChallenge(request) }
        router.add("POST", Self.threeDSPath, Operations.submitThreeDSecurePage) { request in
            try submitChallenge(request)
        }
    }

    func showChallenge(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.queryValue("session") ?? ""
        let token = request.queryValue("token") ?? ""
        guard let status = try challengeStatus(id: id, token: token) else { return Self.notFound() }
        guard status == "pending" else {
            return Self.done("3-D Secure", "This challenge was already answered (\(status)). Return to the app.")
        }
        return .html(
            HTML.page(
                title: "3-D Secure authentication",
                body: """
                    <div class="sandbox">Test mode: no bank is contacted.</div>
                    <h1>Confirm this payment</h1>
                    <p>Your bank asks you to authenticate the card payment for onramp session \(HTML.escape(id)).</p>
                    <form method="post" action="\(Self.threeDSPath)" class="actions">
                    <input type="hidden" name="session" value="\(HTML.escape(id))">
                    <input type="hidden" name="token" value="\(HTML.escape(token))">
                    <button class="primary" type="submit" name="outcome" value="complete">Complete authentication</button>
                    <button class="secondary" type="submit" name="outcome" value="fail">Fail authentication</button>
                    </form>
                    """))
    }

    func submitChallenge(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let id = try form.required("session", maxLength: 64)
        let token = try form.required("token", maxLength: 64)
        let outcome = try form.required("outcome", maxLength: 16)
        guard outcome == "complete" || outcome == "fail" else {
            throw HTTPError(
                status: 400, code: "invalid_request", message: "outcome is complete or fail.", param: "outcome")
        }
        guard try challengeStatus(id: id, token: token) != nil else { return Self.notFound() }
        let result = outcome == "complete" ? "passed" : "failed"
        // Still the challenge this token was issued for: a checkout may have started a new one since.
        let changed = try context.database.transaction { connection in
            try connection.execute(
                """
                UPDATE crypto_onramp_sessions SET three_ds_status = ?
                WHERE id = ? AND three_ds_status = 'pending' AND three_ds_token_hash = ?
                """, [.text(result), .text(id), .text(APIKeyRepository.secretHash(token))])
        }
        guard changed == 1 else {
            return Self.done("3-D Secure", "This challenge was already answered. Return to the app.")
        }
        return Self.done(
            "3-D Secure",
            result == "passed"
                ? "Authentication complete. Return to the app to finish the purchase."
                : "Authentication failed. Return to the app.")
    }

    private func challengeStatus(id: String, token: String) throws -> String? {
        guard id.utf8.count <= 64, token.utf8.count <= 64,
            let row = try context.database.read({
                try $0.query(
                    "SELECT three_ds_token_hash, three_ds_status FROM crypto_onramp_sessions WHERE id = ?", [.text(id)]
                ).first
            }),
            let hash = row.optionalString("three_ds_token_hash"),
            APIKeyRepository.secretMatches(token, storedHash: hash)
        else { return nil }
        return row.optionalString("three_ds_status")
    }

    /// A page that closes a test-mode flow.
    static func done(_ title: String, _ message: String) -> HTTPResponse {
        .html(
            HTML.page(title: title, body: "<h1>\(HTML.escape(title))</h1><p id=\"result\">\(HTML.escape(message))</p>"))
    }

    /// The answer to an unknown or mistyped page link.
    static func notFound() -> HTTPResponse {
        .html(
            HTML.page(title: "Not found", body: "<h1>Link not valid</h1><p>This link is unknown or expired.</p>"),
            status: 404)
    }
}

import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore

/// The test-mode 3-D Secure challenge page (plain forms, no JavaScript): Complete or Fail. The
/// result is recorded on the session; the next checkout call charges (or declines) accordingly.
struct HostedTestPages: Sendable {
    static let threeDSPath = PagePaths.threeDSecure

    let context: ServerContext

    func showChallenge(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.queryValue("session") ?? ""
        let token = request.queryValue("token") ?? ""
        guard let status = try challengeStatus(id: id, token: token) else { return Self.notFound() }
        guard status.isAnswerable else {
            return Self.done(
                "3-D Secure", "This challenge was already answered (\(status.rawValue)). Return to the app.")
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
        guard let answer = ThreeDSecureStatus(pageOutcome: try form.required("outcome", maxLength: 16)) else {
            throw FieldError(
                code: "invalid_request", message: "outcome is complete or fail.", param: "outcome")
        }
        guard try challengeStatus(id: id, token: token) != nil else { return Self.notFound() }
        // Still the challenge this token was issued for: a checkout may have started a new one since.
        let answered = try context.database.transaction { connection in
            try OnrampSessionRecord.answerThreeDSChallenge(
                connection, id: id, tokenHash: APIKeyRepository.secretHash(token), with: answer)
        }
        guard answered else {
            return Self.done("3-D Secure", "This challenge was already answered. Return to the app.")
        }
        return Self.done(
            "3-D Secure",
            answer == .passed
                ? "Authentication complete. Return to the app to finish the purchase."
                : "Authentication failed. Return to the app.")
    }

    /// The status of the session's 3-D Secure challenge when `token` is the one issued for it.
    private func challengeStatus(id: String, token: String) throws -> ThreeDSecureStatus? {
        guard id.utf8.count <= 64, token.utf8.count <= 64,
            let challenge = try context.database.read({ try OnrampSessionRecord.threeDSChallenge($0, id: id) }),
            APIKeyRepository.secretMatches(token, storedHash: challenge.tokenHash)
        else { return nil }
        return challenge.status
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

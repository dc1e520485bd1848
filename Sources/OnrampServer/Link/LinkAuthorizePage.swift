import HTTPServer
import OnrampServices
import OnrampWire

/// A test-mode hosted page for the OTP and consent step of a LinkAuthIntent, for partners without
/// the native SDK dialog: the tester enters the code (`000000`) and allows or denies. It uses the same
/// consumer session and confirmation rules as the SDK routes (wrong codes counted, locked after five).
struct LinkAuthorizePage: Sendable {
    static let path = "/embedded/test/link/authorize"

    let consumers: ConsumerRoutes
    var context: ServerContext { consumers.context }

    func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let intentId = request.queryValue("link_auth_intent") ?? ""
        guard let caller = try caller(forIntent: intentId) else { return HostedTestPages.notFound() }
        guard let found = try consumers.service.lookup(.linkAuthIntent(id: intentId), caller: caller) else {
            return HostedTestPages.notFound()
        }
        _ = try consumers.service.startVerification(found.opened)
        return .html(form(intentId: intentId, secret: found.session.clientSecret, message: nil))
    }

    func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let intentId = try form.required("link_auth_intent", maxLength: 64)
        let secret = try form.required("session", maxLength: 128)
        let code = try form.optional("code", maxLength: 16) ?? ""
        let decision = try form.required("decision", maxLength: 8)
        guard let caller = try caller(forIntent: intentId) else { return HostedTestPages.notFound() }
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try ConsumerSession.require(
            request, body: ["credentials": ["consumer_session_client_secret": .string(secret)]], caller: caller,
            context: context, verified: false)
        do {
            let (_, intent) = try consumers.service.confirmVerification(
                session, VerificationConfirmation(code: code, consentGranted: decision == "allow"), caller: caller)
            return HostedTestPages.done(
                "Log in with Link",
                intent?.status == .consented
                    ? "Access allowed. Return to the app." : "Access denied. Return to the app.")
        } catch OneTimeCodeRefusal.wrongCode {
            return .html(
                self.form(intentId: intentId, secret: secret, message: "That code is not correct."), status: 400)
        }
    }

    private func form(intentId: String, secret: String, message: String?) -> String {
        let warning = message.map { "<p class=\"sandbox\" id=\"error\">\(HTML.escape($0))</p>" } ?? ""
        return HTML.page(
            title: "Log in with Link",
            body: """
                <div class="sandbox">Test mode: the code is 000000; no SMS is sent.</div>
                <h1>Enter the code we sent you</h1>
                \(warning)
                <form method="post" action="\(Self.path)" class="actions">
                <input type="hidden" name="link_auth_intent" value="\(HTML.escape(intentId))">
                <input type="hidden" name="session" value="\(HTML.escape(secret))">
                <label for="code">One-time code</label>
                <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6">
                <button class="primary" type="submit" name="decision" value="allow">Allow access</button>
                <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
                </form>
                """)
    }

    /// The project and mode of the intent's project, as if its publishable key had called.
    private func caller(forIntent id: String) throws -> StripeCaller? {
        guard id.hasPrefix("lai_"), id.utf8.count <= 64 else { return nil }
        let projectId = try context.database.read { connection in
            try APIKeyRepository(connection: connection).testModeProject(ofLinkAuthIntent: id)
        }
        return projectId.map { StripeCaller(projectId: $0, livemode: false) }
    }
}

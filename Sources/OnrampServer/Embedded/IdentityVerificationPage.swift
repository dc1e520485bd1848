import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// Test-mode identity verification (L2): `start_identity_verification` opens a session whose hosted
/// page lets the tester pick the outcome; a rejected or canceled verification can be started again.
struct IdentityVerificationPage: Sendable {
    static let path = "/embedded/test/identity"
    /// The outcomes the test-mode page offers, with the document status each one sets.
    static let outcomes: [(value: String, label: String, status: VerificationStatus?)] = [
        ("verified", "Verification succeeds", .verified),
        ("rejected", "Verification fails (document rejected)", .rejected),
        ("pending", "Verification stays in review", .pending),
        ("canceled", "Cancel without submitting", nil),
    ]

    let context: ServerContext
    let service: IdentityVerificationService

    init(context: ServerContext) {
        self.context = context
        service = IdentityVerificationService(context: context)
    }

    /// Opens a verification session for `customer`: `{id, url, ephemeral_key}`.
    func start(customer: CryptoCustomer, livemode: Bool) throws -> JSONValue {
        let started = try service.start(customer: customer, livemode: livemode)
        return [
            "id": .string(started.id), "object": "identity.verification_session", "status": "requires_input",
            "url": .string("\(context.publicBaseURL)\(Self.path)?session=\(started.id)&token=\(started.pageToken)"),
            "ephemeral_key": .string(started.ephemeralKey),
        ]
    }

    func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.queryValue("session") ?? ""
        let token = request.queryValue("token") ?? ""
        guard let status = try service.pageStatus(id: id, token: token) else { return HostedTestPages.notFound() }
        guard status == "requires_input" else {
            return HostedTestPages.done(
                "Identity verification", "This verification was already submitted (\(status)). Return to the app.")
        }
        let buttons = Self.outcomes.map { outcome in
            """
            <button class="\(outcome.value == "verified" ? "primary" : "secondary")" type="submit" name="outcome" value="\(outcome.value)">\(HTML.escape(outcome.label))</button>
            """
        }.joined(separator: "\n")
        return .html(
            HTML.page(
                title: "Verify your identity",
                body: """
                    <div class="sandbox">Test mode: no document or selfie is uploaded. Pick the outcome.</div>
                    <h1>Verify your identity</h1>
                    <p>A photo ID and a selfie are normally collected here.</p>
                    <form method="post" action="\(Self.path)" class="actions">
                    <input type="hidden" name="session" value="\(HTML.escape(id))">
                    <input type="hidden" name="token" value="\(HTML.escape(token))">
                    \(buttons)
                    </form>
                    """))
    }

    func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let id = try form.required("session", maxLength: 64)
        let token = try form.required("token", maxLength: 64)
        let choice = try form.required("outcome", maxLength: 16)
        guard let outcome = Self.outcomes.first(where: { $0.value == choice }) else {
            throw FieldError(code: "invalid_request", message: "Unknown outcome.", param: "outcome")
        }
        guard let status = try service.pageStatus(id: id, token: token) else { return HostedTestPages.notFound() }
        guard status == "requires_input" else {
            return HostedTestPages.done(
                "Identity verification", "This verification was already submitted. Return to the app.")
        }
        guard try service.record(outcome.value, documentStatus: outcome.status, verification: id) else {
            return HostedTestPages.done(
                "Identity verification", "This verification was already submitted. Return to the app.")
        }
        return HostedTestPages.done(
            "Identity verification", "Outcome recorded: \(outcome.label). You can return to the app.")
    }
}

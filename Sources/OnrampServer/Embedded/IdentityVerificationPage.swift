import HTTPServer
import OnrampCore
import OnrampStore
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

    func register(on router: inout Router) {
        router.add("GET", Self.path, Operations.showIdentityVerificationPage) { request in try show(request) }
        router.add("POST", Self.path, Operations.submitIdentityVerificationPage) { request in try submit(request) }
    }

    /// Opens a verification session for `customer`: `{id, url, ephemeral_key}`.
    func start(customer: CryptoCustomer, livemode: Bool) throws -> JSONValue {
        guard !livemode else { throw StripeErrors.liveModeUnsupported("Identity verification") }
        guard customer.documentStatus != .verified else {
            throw StripeErrors.invalid(
                "identity_verification_already_verified", "The customer's identity document is already verified.")
        }
        let id = context.ids.id(prefix: IdPrefix.identityVerification)
        let token = context.ids.base62(length: 32)
        // The key the SDK's identity sheet calls the verification-page API with (only its hash is kept).
        let ephemeralKey = "ek_test_" + context.ids.base62(length: 32)
        try context.database.transaction { connection in
            try connection.execute(
                """
                INSERT INTO identity_verifications (id, project_id, customer_id, page_token_hash, ephemeral_key_hash,
                    status, created_at)
                VALUES (?, ?, ?, ?, ?, 'requires_input', ?)
                """,
                [
                    .text(id), .text(customer.projectId), .text(customer.id), .text(APIKeyRepository.secretHash(token)),
                    .text(APIKeyRepository.secretHash(ephemeralKey)), .integer(context.nowMilliseconds),
                ])
        }
        return [
            "id": .string(id), "object": "identity.verification_session", "status": "requires_input",
            "url": .string("\(context.publicBaseURL)\(Self.path)?session=\(id)&token=\(token)"),
            "ephemeral_key": .string(ephemeralKey),
        ]
    }

    func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.queryValue("session") ?? ""
        let token = request.queryValue("token") ?? ""
        guard let status = try status(id: id, token: token) else { return HostedTestPages.notFound() }
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
            throw HTTPError(status: 400, code: "invalid_request", message: "Unknown outcome.", param: "outcome")
        }
        guard let status = try status(id: id, token: token) else { return HostedTestPages.notFound() }
        guard status == "requires_input" else {
            return HostedTestPages.done(
                "Identity verification", "This verification was already submitted. Return to the app.")
        }
        let recorded = try context.database.transaction { connection in
            try Self.record(outcome.value, documentStatus: outcome.status, verification: id, connection)
        }
        guard recorded else {
            return HostedTestPages.done(
                "Identity verification", "This verification was already submitted. Return to the app.")
        }
        return HostedTestPages.done(
            "Identity verification", "Outcome recorded: \(outcome.label). You can return to the app.")
    }

    /// Moves verification `id` out of `requires_input` to `outcome` and, when given, sets its customer's document
    /// status, in the caller's transaction; `false` when it was no longer open (only one outcome counts).
    static func record(
        _ outcome: String, documentStatus: VerificationStatus?, verification id: String, _ connection: any SQLConnection
    ) throws -> Bool {
        guard
            try connection.execute(
                "UPDATE identity_verifications SET status = ? WHERE id = ? AND status = 'requires_input'",
                [.text(outcome), .text(id)]) == 1
        else { return false }
        if let documentStatus {
            try connection.execute(
                """
                UPDATE crypto_customers SET document_status = ?
                WHERE id = (SELECT customer_id FROM identity_verifications WHERE id = ?)
                """, [.text(documentStatus.rawValue), .text(id)])
        }
        return true
    }

    private func status(id: String, token: String) throws -> String? {
        guard id.utf8.count <= 64, token.utf8.count <= 64,
            let row = try context.database.read({
                try $0.query("SELECT page_token_hash, status FROM identity_verifications WHERE id = ?", [.text(id)])
                    .first
            }),
            APIKeyRepository.secretMatches(token, storedHash: try row.string("page_token_hash"))
        else { return nil }
        return try row.string("status")
    }
}

import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The StripeIdentity verification-page API the SDK's identity sheet drives with the ephemeral key
/// `start_identity_verification` answered (stripe-ios `StripeIdentity/…/API Bindings/IdentityAPIClient.swift`):
/// read the page, send collected data, submit, the test-mode `testing/verify` and `testing/unverify`, and the
/// image uploads of `POST /v1/files` (StripeCore `STPAPIClient+FileUpload.swift`, sent to `uploads.stripe.com`).
/// Outcomes move the L2 tier exactly as the hosted identity page does: a complete submission or
/// `testing/verify` verifies the document, `testing/unverify` rejects it.
struct VerificationPageRoutes: Sendable {
    /// How long an ephemeral key works after the verification starts.
    static let ephemeralKeyLifetimeMilliseconds: Int64 = 3_600_000
    /// The upload purposes the sheet sends.
    static let filePurposes: Set<String> = ["identity_private", "identity_document"]

    let context: ServerContext

    func register(on router: inout Router) {
        let base = "/v1/identity/verification_pages/{id}"
        router.add("GET", base, Operations.retrieveVerificationPage) { request in
            let verification = try authenticate(request)
            return .json(page(verification))
        }
        router.add("POST", base + "/data", Operations.updateVerificationPageData) { request in
            .json(try collect(try authenticate(request), form: try request.parsedBody()))
        }
        router.add("POST", base + "/submit", Operations.submitVerificationPage) { request in
            .json(try submit(try authenticate(request)))
        }
        router.add("POST", base + "/testing/verify", Operations.verifyTestVerificationPage) { request in
            .json(try decide(try authenticate(request), outcome: "verified", documentStatus: .verified))
        }
        router.add("POST", base + "/testing/unverify", Operations.unverifyTestVerificationPage) { request in
            .json(try decide(try authenticate(request), outcome: "rejected", documentStatus: .rejected))
        }
        router.add("POST", "/v1/files", Operations.uploadIdentityFile) { request in
            .json(try upload(request))
        }
    }

    /// The verification `Authorization: Bearer ek_…` names, which must be the one in the path (`id`), or the
    /// owner of an upload (`owned_by`).
    private func authenticate(_ request: HTTPRequest, id: String? = nil) throws -> VerificationPageState {
        let header = request.headers["Authorization"] ?? ""
        guard header.hasPrefix("Bearer ek_"), header.utf8.count <= 128 else {
            throw StripeErrors.authentication("Send the verification's ephemeral key: Authorization: Bearer ek_….")
        }
        let key = String(header.dropFirst("Bearer ".count))
        let now = context.nowMilliseconds
        guard
            let (verification, createdAt) = try context.database.read({
                try IdentityVerificationRepository(connection: $0).find(
                    ephemeralKeyHash: APIKeyRepository.secretHash(key))
            }), createdAt + Self.ephemeralKeyLifetimeMilliseconds > now
        else { throw StripeErrors.authentication("The ephemeral key is invalid or expired.") }
        guard verification.id == (id ?? request.pathParameters["id"]) else {
            throw StripeErrors.missing("verification page", param: "id")
        }
        return verification
    }

    private func page(_ verification: VerificationPageState) -> JSONValue {
        VerificationPageContent(
            id: verification.id, baseURL: context.publicBaseURL,
            fallbackURL: context.publicBaseURL + IdentityVerificationPage.path,
            status: verification.pageStatus,
            submitted: verification.submitted || verification.status != "requires_input",
            missing: verification.missing
        ).json
    }

    /// `POST …/data`: `collected_data[field]` adds a field (documents and faces name files uploaded for this
    /// verification), `clear_data[field]=true` removes one.
    private func collect(_ verification: VerificationPageState, form: JSONValue) throws -> JSONValue {
        guard verification.status == "requires_input", !verification.submitted else {
            throw StripeErrors.invalid("verification_page_submitted", "This verification was already submitted.")
        }
        var collected = verification.collected
        for (field, value) in form["clear_data"]?.objectValue ?? [] where value.stringValue == "true" {
            collected.remove(field)
        }
        let fields = StripeErrors.fields(form)
        let data = try fields.object("collected_data")
        if try data?.optionalBool("biometric_consent") == true { collected.insert("biometric_consent") }
        let fileFields = [
            "id_document_front": "high_res_image", "id_document_back": "high_res_image", "face": "best_high_res_image",
        ]
        for (field, fileKey) in fileFields {
            guard let part = try data?.object(field) else { continue }
            let file = try part.required(fileKey, maxLength: 64)
            guard try fileExists(file, verification: verification.id) else {
                throw StripeErrors.missing("file: \(file)", param: "collected_data[\(field)][\(fileKey)]")
            }
            collected.insert(field)
        }
        let stored = VerificationPageContent.requiredFields.filter(collected.contains)
        try context.database.transaction {
            try IdentityVerificationRepository(connection: $0).setCollected(stored, verification: verification.id)
        }
        return VerificationPageContent.data(
            id: verification.id, status: "requires_input", submitted: false,
            missing: VerificationPageContent.requiredFields.filter { !collected.contains($0) })
    }

    /// `POST …/submit`: with nothing missing, the sandbox verifies the document.
    private func submit(_ verification: VerificationPageState) throws -> JSONValue {
        guard verification.missing.isEmpty else {
            return VerificationPageContent.data(
                id: verification.id, status: "requires_input", submitted: false, missing: verification.missing)
        }
        return try decide(verification, outcome: "verified", documentStatus: .verified)
    }

    /// Records the outcome (once) and answers the submitted, closed page data.
    private func decide(_ verification: VerificationPageState, outcome: String, documentStatus: VerificationStatus)
        throws
        -> JSONValue
    {
        let recorded = try context.database.transaction { connection -> Bool in
            guard
                try IdentityVerificationPage.record(
                    outcome, documentStatus: documentStatus, verification: verification.id, connection)
            else { return false }
            try IdentityVerificationRepository(connection: connection).markSubmitted(verification.id)
            return true
        }
        guard recorded else {
            throw StripeErrors.invalid("verification_page_submitted", "This verification was already submitted.")
        }
        let status = outcome == "verified" ? "verified" : "requires_input"
        return VerificationPageContent.data(id: verification.id, status: status, submitted: true, missing: [])
    }

    /// `POST /v1/files`: a multipart upload (`purpose`, `owned_by`, `file`). Only its size and purpose are kept.
    private func upload(_ request: HTTPRequest) throws -> JSONValue {
        let form = try MultipartFormData(body: request.body, contentType: request.headers["Content-Type"])
        guard let owner = form.part("owned_by")?.text else {
            throw StripeErrors.invalid("parameter_missing", "Missing owned_by.", param: "owned_by")
        }
        let verification = try authenticate(request, id: owner)
        guard let purpose = form.part("purpose")?.text, Self.filePurposes.contains(purpose) else {
            throw StripeErrors.invalid(
                "parameter_invalid", "purpose is identity_private or identity_document.", param: "purpose")
        }
        guard let file = form.part("file"), !file.body.isEmpty,
            ["image/jpeg", "image/png"].contains(file.contentType?.lowercased() ?? "")
        else { throw StripeErrors.invalid("parameter_invalid", "Send a JPEG or PNG file.", param: "file") }
        let id = context.ids.id(prefix: IdPrefix.file)
        let now = context.nowMilliseconds
        try context.database.transaction {
            try IdentityVerificationRepository(connection: $0).insertFile(
                id: id, verification: verification.id, purpose: purpose, size: file.body.count, now: now)
        }
        return [
            "id": .string(id), "object": "file", "created": .integer(now / 1000), "purpose": .string(purpose),
            "size": .integer(file.body.count), "type": file.contentType?.lowercased() == "image/png" ? "png" : "jpg",
            "filename": .optional(file.filename),
        ]
    }

    private func fileExists(_ id: String, verification: String) throws -> Bool {
        try context.database.read {
            try IdentityVerificationRepository(connection: $0).fileExists(id, verification: verification)
        }
    }
}

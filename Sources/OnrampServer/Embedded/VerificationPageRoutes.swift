import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The StripeIdentity verification-page API the SDK's identity sheet drives with the ephemeral key
/// `start_identity_verification` answered (stripe-ios `StripeIdentity/…/API Bindings/IdentityAPIClient.swift`):
/// read the page, send collected data, submit, the test-mode `testing/verify` and `testing/unverify`, and the
/// image uploads of `POST /v1/files` (StripeCore `STPAPIClient+FileUpload.swift`, sent to `uploads.stripe.com`).
/// Outcomes move the L2 tier exactly as the hosted identity page does: a complete submission or
/// `testing/verify` verifies the document, `testing/unverify` rejects it.
struct VerificationPageRoutes: Sendable {
    /// The upload purposes the sheet sends.
    static let filePurposes: Set<String> = ["identity_private", "identity_document"]

    let context: ServerContext
    let service: IdentityVerificationService

    init(context: ServerContext) {
        self.context = context
        service = IdentityVerificationService(context: context)
    }

    func retrieveVerificationPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let verification = try authenticate(request)
        return .json(page(verification))
    }

    func updateVerificationPageData(_ request: HTTPRequest) throws -> HTTPResponse {
        let verification = try authenticate(request)
        let form = try request.parsedBody()
        guard verification.status == "requires_input", !verification.submitted else { throw Self.submitted }
        let update = try VerificationPageDataUpdate(form)
        let collected = try service.collect(update, verification: verification.id)
        return .json(
            VerificationPageContent.data(
                id: collected.id, status: "requires_input", submitted: false, missing: collected.missing))
    }

    func submitVerificationPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let verification = try authenticate(request)
        // With nothing missing, the sandbox verifies the document.
        guard verification.missing.isEmpty else {
            return .json(
                VerificationPageContent.data(
                    id: verification.id, status: "requires_input", submitted: false,
                    missing: verification.missing))
        }
        return .json(try decide(verification, outcome: "verified", documentStatus: .verified))
    }

    func verifyTestVerificationPage(_ request: HTTPRequest) throws -> HTTPResponse {
        .json(try decide(try authenticate(request), outcome: "verified", documentStatus: .verified))
    }

    func unverifyTestVerificationPage(_ request: HTTPRequest) throws -> HTTPResponse {
        .json(try decide(try authenticate(request), outcome: "rejected", documentStatus: .rejected))
    }

    func uploadIdentityFile(_ request: HTTPRequest) throws -> HTTPResponse {
        .json(try upload(request))
    }

    /// The answer to a change of a verification that already has its outcome.
    static let submitted = StripeErrors.invalid(
        "verification_page_submitted", "This verification was already submitted.")

    /// The verification `Authorization: Bearer ek_…` names, which must be the one in the path (`id`), or the
    /// owner of an upload (`owned_by`).
    private func authenticate(_ request: HTTPRequest, id: String? = nil) throws -> VerificationPageState {
        let header = request.headers["Authorization"] ?? ""
        guard header.hasPrefix("Bearer ek_"), header.utf8.count <= 128 else {
            throw StripeErrors.authentication("Send the verification's ephemeral key: Authorization: Bearer ek_….")
        }
        guard let verification = try service.verification(ephemeralKey: String(header.dropFirst("Bearer ".count)))
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

    /// Records the outcome (once) and answers the submitted, closed page data.
    private func decide(_ verification: VerificationPageState, outcome: String, documentStatus: VerificationStatus)
        throws -> JSONValue
    {
        guard
            try service.record(outcome, documentStatus: documentStatus, verification: verification.id, submitted: true)
        else { throw Self.submitted }
        let status = outcome == "verified" ? "verified" : "requires_input"
        return VerificationPageContent.data(id: verification.id, status: status, submitted: true, missing: [])
    }

    /// `POST /v1/files`: a multipart upload (`purpose`, `owned_by`, `file`). Only its size and purpose are kept.
    /// A KYC document (purpose `crypto_onramp_kyc_document`) is the crypto SDKs' own upload instead.
    private func upload(_ request: HTTPRequest) throws -> JSONValue {
        let form = try MultipartFormData(body: request.body, contentType: request.headers["Content-Type"])
        if form.part("purpose")?.text == Self.kycDocumentPurpose { return try uploadKYCDocument(request, form) }
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
        let stored = try service.upload(purpose: purpose, size: file.body.count, verification: verification.id)
        return [
            "id": .string(stored.id), "object": "file", "created": .integer(stored.created / 1000),
            "purpose": .string(purpose), "size": .integer(file.body.count),
            "type": file.contentType?.lowercased() == "image/png" ? "png" : "jpg", "filename": .optional(file.filename),
        ]
    }

    /// The purpose of the crypto SDKs' KYC document uploads.
    static let kycDocumentPurpose = "crypto_onramp_kyc_document"

    /// A KYC document (stripe-android `OnrampFileUploadRequest.kt` at f868347b): `purpose` and `file`, no
    /// `owned_by`, with the publishable key or a consumer's link session key; a PDF, JPEG or PNG of at most
    /// ``KYCComplianceService/maximumDocumentBytes``. Only its metadata and digest are kept.
    private func uploadKYCDocument(_ request: HTTPRequest, _ form: MultipartFormData) throws -> JSONValue {
        let caller = try StripeCaller.authenticate(
            request, context: context, allowPublishable: true, allowLinkSessionKey: true)
        RequestNotes.current?.projectId = caller.projectId
        guard let file = form.part("file"), !file.body.isEmpty,
            let format = KYCComplianceService.documentFormats[file.contentType?.lowercased() ?? ""]
        else { throw StripeErrors.invalid("parameter_invalid", "Send a PDF, JPEG or PNG file.", param: "file") }
        guard file.body.count <= KYCComplianceService.maximumDocumentBytes else {
            throw StripeErrors.invalid(
                "file_too_large", "A KYC document is at most \(KYCComplianceService.maximumDocumentBytes) bytes.",
                param: "file")
        }
        let stored = try KYCComplianceService(context: context).upload(
            caller: caller, contentType: file.contentType?.lowercased() ?? "", fileName: file.filename, bytes: file.body
        )
        return [
            "id": .string(stored.id), "object": "file", "created": .integer(stored.created / 1000),
            "purpose": .string(Self.kycDocumentPurpose), "size": .integer(file.body.count), "type": .string(format),
            "filename": .optional(file.filename),
        ]
    }
}

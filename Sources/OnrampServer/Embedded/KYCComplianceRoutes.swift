import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The 2026 KYC and compliance calls both mobile SDKs make (`../shared/audits/stripe-android-2026.md` §6, read in
/// stripe-android `crypto-onramp`): `kyc_requirements`, `fulfill_additional_kyc_requirement` (the first form,
/// with the consumer's credentials), `fulfill_kyc_requirements` (the newest SDK's, with the link session key as
/// its Bearer key), `identifier_requirements` and `eu_identifiers`. An EU customer owes identifiers, a proof of
/// address and the purpose of its purchases; a US customer owes nothing beyond the KYC tiers.
struct KYCComplianceRoutes: Sendable {
    let routes: StripeRoutes
    let service: KYCComplianceService
    let customers: CryptoInternalRoutes

    init(routes: StripeRoutes) {
        self.routes = routes
        service = KYCComplianceService(context: routes.context)
        customers = CryptoInternalRoutes(routes: routes)
    }

    /// Who asks the sandbox's requirements (`requested_by`, and the first form's `liquidity_provider`).
    static let requestedBy = "stripe"

    func retrieveKycRequirements(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue
    {
        let customer = try customer(request, caller: caller, body: body)
        let outstanding = try service.outstandingRequirements(of: customer)
        return [
            "object": "crypto.kyc_requirements",
            "requirements": .object(outstanding.map { ($0, Self.proofOfAddressJSON) }),
        ]
    }

    /// The first form: `liquidity_provider` names who asked, and the submission fulfils what that provider
    /// asked (here the proof of address).
    func fulfillAdditionalKycRequirement(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        let customer = try customer(request, caller: caller, body: body)
        let fields = RequestFields.stripe(body)
        let provider = try fields.required("liquidity_provider", maxLength: 64)
        guard provider == Self.requestedBy else {
            throw fields.invalid("liquidity_provider", "No requirement was requested by \(provider).")
        }
        if let type = try fields.optional("submission_type", maxLength: 32), type != "document" {
            throw fields.invalid("submission_type", "submission_type is document.")
        }
        let submission = try KYCRequirementSubmission(fields)
        let id = try service.fulfill(KYCDocumentRequirements.proofOfAddress, with: submission, for: customer)
        return submission.json.setting([
            "id": .string(id), "object": "crypto.kyc_requirement_submission", "liquidity_provider": .string(provider),
            "submission_type": "document", "status": "accepted",
            "created": .integer(routes.context.nowMilliseconds / 1000),
        ])
    }

    /// The newest SDK's form: `requirements[<name>][…]`, with the link session key (or the credentials).
    func fulfillKycRequirements(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let fields = RequestFields.stripe(body)
        guard let requirements = try fields.object("requirements"), let members = requirements.body.objectValue,
            !members.isEmpty, members.count <= 10
        else { throw fields.invalid("requirements", "Send requirements[<name>][…] for 1 to 10 requirements.") }
        var fulfilled: [(String, JSONValue)] = []
        for (name, _) in members {
            guard let member = try requirements.object(name) else {
                throw fields.invalid("requirements[\(name)]", "Each requirement is an object.")
            }
            let id = try service.fulfill(name, with: try KYCRequirementSubmission(member), for: customer)
            fulfilled.append((name, ["submission": .string(id), "status": "accepted"]))
        }
        return ["object": "crypto.kyc_requirements_fulfillment", "requirements": .object(fulfilled)]
    }

    func retrieveIdentifierRequirements(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        Self.planJSON(try service.identifierPlan(of: try customer(request, caller: caller, body: body)))
    }

    func submitEUIdentifiers(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let submission = try IdentifierSubmission(RequestFields.stripe(body))
        let (invalid, plan) = try service.submit(submission.identifiers, for: customer)
        return Self.planJSON(plan).setting([
            "valid": .bool(invalid.isEmpty), "invalid_identifiers": .array(invalid.map { .string($0) }),
        ])
    }

    /// The caller's customer: the link session key's, or the consumer session's (credentials, or the
    /// `Stripe-Consumer-Auth-Token` header of the 2026 GETs).
    private func customer(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> CryptoCustomer {
        if let customer = caller.linkSessionCustomer { return customer }
        return try customers.customer(request, caller: caller, body: body)
    }

    /// `{identifiers: [{type, regulation}], alternatives: [{original_missing_identifiers,
    /// alternative_missing_identifiers}], carf_tin_required}`.
    static func planJSON(_ plan: ComplianceIdentifiers.Plan) -> JSONValue {
        [
            "object": "crypto.identifier_requirements",
            "identifiers": .array(
                plan.identifiers.map { ["type": .string($0.type), "regulation": .string($0.regulation.rawValue)] }),
            "alternatives": .array(
                plan.alternatives.map {
                    [
                        "original_missing_identifiers": .array($0.original.map { .string($0) }),
                        "alternative_missing_identifiers": .array($0.alternative.map { .string($0) }),
                    ]
                }),
            "carf_tin_required": .bool(plan.carfTINRequired),
        ]
    }

    /// The proof-of-address requirement (the one requirement the sandbox asks), as
    /// `RetrieveKycRequirementsResponse.kt` (9061dde6, 13f0fb44) reads a requirement.
    static var proofOfAddressJSON: JSONValue {
        let labels = ["utility_bill": "Utility bill", "bank_statement": "Bank statement", "tax_letter": "Tax letter"]
        return [
            "requested_by": .string(requestedBy), "awaiting_action_from": "user", "errors": [],
            "document": [
                "accepted_subtypes": .array(
                    KYCDocumentRequirements.proofOfAddressSubtypes.map {
                        [
                            "id": .string($0), "label": .string(labels[$0] ?? $0),
                            "description": "Dated within the last three months, showing your name and address.",
                        ]
                    }),
                "accepted_formats": .array(
                    KYCComplianceService.documentFormats.values.sorted().map { .string($0) }),
                "max_file_size_bytes": .integer(KYCComplianceService.maximumDocumentBytes),
                "min_document_types": 1, "max_document_types": 1,
                "max_files_per_document_type": .integer(KYCComplianceService.maximumFilesPerDocumentType),
                "file_requirements": "A PDF, JPEG or PNG of at most 1 MB per file.",
                "instructions": ["Upload one document that shows your full name and residential address."],
            ],
            "additional_requirements": [
                "questionnaire": [
                    "questions": [
                        [
                            "id": .string(KYCDocumentRequirements.purchasePurpose),
                            "prompt": "What will you use the crypto for?", "answer_type": "text", "required": true,
                        ]
                    ]
                ]
            ],
        ]
    }
}

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
        return CryptoKYCRequirements(requirements: OrderedMap(outstanding.map { ($0, Self.proofOfAddress) })).json
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
        return CryptoKYCRequirementSubmission(
            id: id, liquidityProvider: provider, created: routes.context.nowMilliseconds / 1000,
            documents: submission.documents.map {
                .init(documentType: $0.type, documentSubtype: $0.subtype, fileIds: $0.fileIds)
            },
            answers: submission.answers.map { .init(questionId: $0.questionId, value: $0.value) }
        ).json
    }

    /// The newest SDK's form: `requirements[<name>][…]`, with the link session key (or the credentials).
    func fulfillKycRequirements(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let fields = RequestFields.stripe(body)
        guard let requirements = try fields.object("requirements"), let members = requirements.body.objectValue,
            !members.isEmpty, members.count <= 10
        else { throw fields.invalid("requirements", "Send requirements[<name>][…] for 1 to 10 requirements.") }
        var fulfilled: OrderedMap<CryptoKYCRequirementsFulfillment.Fulfilled> = [:]
        for (name, _) in members {
            guard let member = try requirements.object(name) else {
                throw fields.invalid("requirements[\(name)]", "Each requirement is an object.")
            }
            let id = try service.fulfill(name, with: try KYCRequirementSubmission(member), for: customer)
            fulfilled[name] = .init(submission: id)
        }
        return CryptoKYCRequirementsFulfillment(requirements: fulfilled).json
    }

    func retrieveIdentifierRequirements(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        Self.requirements(try service.identifierPlan(of: try customer(request, caller: caller, body: body))).json
    }

    func submitEUIdentifiers(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let submission = try IdentifierSubmission(RequestFields.stripe(body))
        let (invalid, plan) = try service.submit(submission.identifiers, for: customer)
        return CryptoIdentifierSubmission(requirements: Self.requirements(plan), invalidIdentifiers: invalid).json
    }

    /// The caller's customer: the link session key's, or the consumer session's (credentials, or the
    /// `Stripe-Consumer-Auth-Token` header of the 2026 GETs).
    private func customer(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> CryptoCustomer {
        if let customer = caller.linkSessionCustomer { return customer }
        return try customers.customer(request, caller: caller, body: body)
    }

    /// The identifiers `plan` still owes, as the SDKs read them.
    static func requirements(_ plan: ComplianceIdentifiers.Plan) -> CryptoIdentifierRequirements {
        CryptoIdentifierRequirements(
            identifiers: plan.identifiers.map { .init(type: $0.type, regulation: $0.regulation.rawValue) },
            alternatives: plan.alternatives.map {
                .init(originalMissingIdentifiers: $0.original, alternativeMissingIdentifiers: $0.alternative)
            },
            carfTINRequired: plan.carfTINRequired)
    }

    /// The proof-of-address requirement (the one requirement the sandbox asks), as
    /// `RetrieveKycRequirementsResponse.kt` (9061dde6, 13f0fb44) reads a requirement.
    static var proofOfAddress: CryptoKYCRequirements.Requirement {
        let labels = ["utility_bill": "Utility bill", "bank_statement": "Bank statement", "tax_letter": "Tax letter"]
        return CryptoKYCRequirements.Requirement(
            requestedBy: requestedBy,
            document: .init(
                acceptedSubtypes: KYCDocumentRequirements.proofOfAddressSubtypes.map {
                    .init(
                        id: $0, label: labels[$0] ?? $0,
                        description: "Dated within the last three months, showing your name and address.")
                },
                acceptedFormats: KYCComplianceService.documentFormats.values.sorted(),
                maxFileSizeBytes: Int64(KYCComplianceService.maximumDocumentBytes), minDocumentTypes: 1,
                maxDocumentTypes: 1, maxFilesPerDocumentType: KYCComplianceService.maximumFilesPerDocumentType,
                fileRequirements: "A PDF, JPEG or PNG of at most 1 MB per file.",
                instructions: ["Upload one document that shows your full name and residential address."]),
            additionalRequirements: .init(questions: [
                .init(
                    id: KYCDocumentRequirements.purchasePurpose, prompt: "What will you use the crypto for?",
                    answerType: "text", required: true)
            ]))
    }
}

import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The declarations the 2026 SDK shows and records (stripe-ios `STPAPIClient+CryptoOnramp.swift` at dbe14ec,
/// `UserAttestation.swift`, `PartnerTerms.swift`, `PartnerDeclarationType.swift`): the CRS/CARF tax declaration
/// (`presentUserAttestation`) and the partner's transaction terms and terms of service
/// (`presentTermsAndConditionsIfNeeded`, `presentTermsOfServiceIfNeeded`). The sandbox's texts are its own;
/// what a customer accepted is kept, so a term accepted once is no longer required.
struct DeclarationRoutes: Sendable {
    /// The sandbox's declaration texts, by kind, with the id (and version) a confirmation names.
    static let declarations: [String: (id: String, text: String)] = [
        "crs_carf": (
            "decl_sandbox_crs_carf_1",
            "<p>Sandbox CRS/CARF self-certification: I confirm that the tax residence and identifiers I gave are correct.</p>"
        ),
        "transaction_terms": (
            "decl_sandbox_transaction_terms_1",
            "<p>Sandbox transaction terms: crypto bought here is simulated; no funds move.</p>"
        ),
        "terms_of_service": (
            "decl_sandbox_terms_of_service_1", "<p>Sandbox terms of service for testing the onramp.</p>"
        ),
    ]

    let routes: StripeRoutes
    let customers: CryptoInternalRoutes
    let service: DeclarationService

    init(routes: StripeRoutes) {
        self.routes = routes
        customers = CryptoInternalRoutes(routes: routes)
        service = DeclarationService(context: routes.context)
    }

    func retrieveCRSCARFDeclaration(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        _ = try customer(request, caller: caller, body: body)
        let declaration = Self.declarations["crs_carf"]!
        return ["text": .string(declaration.text), "version": .string(declaration.id)]
    }

    func confirmCRSCARFDeclaration(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        try accept("crs_carf", customer: try customer(request, caller: caller, body: body))
        return [:]
    }

    /// The partner's terms for `declaration_type`. `PartnerTerms.swift` (stripe-ios `CO/…/API Bindings/`) exists
    /// in versions that read the declaration nested (`declaration{id, type, text}`, the newest) or flat
    /// (`version`, `text`, `declaration_id`, with `declaration_type` sent as `terms` or `tos`); a required
    /// answer carries both forms so that every version decodes it.
    func retrievePartnerTerms(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let sent = request.queryValue("declaration_type") ?? ""
        let kind = Self.olderDeclarationTypes[sent] ?? sent
        guard kind != "crs_carf", let declaration = Self.declarations[kind] else {
            throw StripeErrors.invalid(
                "parameter_invalid", "declaration_type is transaction_terms or terms_of_service (or terms, tos).",
                param: "declaration_type")
        }
        guard try !accepted(kind, customer: customer) else { return ["required": false] }
        return [
            "required": true, "partner": "sandbox", "version": .string(declaration.id),
            "text": .string(declaration.text), "declaration_id": .string(declaration.id),
            "declaration": [
                "id": .string(declaration.id), "type": .string(kind), "text": .string(declaration.text),
            ],
        ]
    }

    /// The `declaration_type` values of the older `PartnerDeclarationType` and the ones they stand for.
    static let olderDeclarationTypes = ["terms": "transaction_terms", "tos": "terms_of_service"]

    func confirmPartnerTerms(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let id = try RequestFields.stripe(body).required("declaration_id", maxLength: 64)
        guard let kind = Self.declarations.first(where: { $0.key != "crs_carf" && $0.value.id == id })?.key else {
            throw StripeErrors.missing("declaration", param: "declaration_id")
        }
        try accept(kind, customer: customer)
        return [:]
    }

    private func customer(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> CryptoCustomer {
        try customers.customer(request, caller: caller, body: body)
    }

    private func accepted(_ kind: String, customer: CryptoCustomer) throws -> Bool {
        try service.hasAccepted(kind, customerId: customer.id)
    }

    private func accept(_ kind: String, customer: CryptoCustomer) throws {
        guard let declaration = Self.declarations[kind] else { return }
        try service.accept(kind, declarationId: declaration.id, customerId: customer.id)
    }
}

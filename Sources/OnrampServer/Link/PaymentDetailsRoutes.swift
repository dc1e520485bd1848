import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The Link wallet routes `collectPaymentMethod` drives (stripe-ios `STPAPIClient+Link.swift`): list and
/// save a consumer's payment details, and share one as a payment method
/// (`consumers/payment_details/share`, passthrough mode) for `createCryptoPaymentToken`. Cards are the test
/// cards of `POST /v1/payment_methods` (no CVC: the consumer endpoint takes none). Bank accounts reach Link
/// through Financial Connections, which this sandbox does not run: `bank_account[account]` is refused.
/// Saved details are updated and deleted at `consumers/payment_details/{id}` (the wallet's own management UI);
/// the router prefers the literal `list` and `share` over the parameter.
struct PaymentDetailsRoutes: Sendable {
    let routes: StripeRoutes
    let service: LinkPaymentDetailsService
    var context: ServerContext { routes.context }

    init(routes: StripeRoutes) {
        self.routes = routes
        service = LinkPaymentDetailsService(context: routes.context)
    }

    func listPaymentDetails(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let types = try RequestFields.stripe(body).optionalList("types", maxCount: 4, maxLength: 32)
        let details = try service.list(consumerId: session.consumerId)
        return [
            "redacted_payment_details": .array(
                details.filter { types?.contains($0.type) ?? true }.map(\.wire.json))
        ]
    }

    func createPaymentDetails(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let creation = try PaymentDetailsCreation(RequestFields.stripe(body))
        return ["redacted_payment_details": try service.save(creation, for: session, caller: caller).wire.json]
    }

    /// `{redacted_payment_details}` after the update (stripe-ios `makePaymentDetailsRequest`'s `DetailsResponse`).
    func updatePaymentDetails(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let update = try PaymentDetailsUpdate(RequestFields.stripe(body))
        let id = request.pathParameters["id"] ?? ""
        return ["redacted_payment_details": try service.update(detailsId: id, update, for: session).wire.json]
    }

    /// `{}` once deleted (stripe-ios decodes `STPEmptyStripeResponse`).
    func deletePaymentDetails(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        try service.delete(detailsId: request.pathParameters["id"] ?? "", for: session)
        return [:]
    }

    func sharePaymentDetails(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try share(request, caller: caller, body: body)
    }

    /// Makes a payment method (`pm_…`) of saved details: `PaymentDetailsShareResponse` requires
    /// `payment_method`, which `STPPaymentMethod.decodedObject` reads with `id` required.
    func share(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let fields = RequestFields.stripe(body)
        let detailsId = try fields.required("id", maxLength: 64)
        if let expected = try fields.optional("expected_payment_method_type", maxLength: 32),
            !["card", "us_bank_account", "link"].contains(expected)
        {
            throw fields.invalid("expected_payment_method_type", "expected_payment_method_type is card or link.")
        }
        let shared = try service.share(detailsId: detailsId, for: session, caller: caller)
        return [
            "payment_method": shared.method.wire(
                id: shared.methodId, livemode: caller.livemode, created: shared.created / 1000
            ).json
        ]
    }
}

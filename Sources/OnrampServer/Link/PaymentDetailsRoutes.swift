import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// The Link wallet routes `collectPaymentMethod` drives (stripe-ios `STPAPIClient+Link.swift`): list and
/// save a consumer's payment details, and share one as a payment method
/// (`consumers/payment_details/share`, passthrough mode) for `createCryptoPaymentToken`. Cards are the test
/// cards of `POST /v1/payment_methods` (no CVC: the consumer endpoint takes none). Bank accounts reach Link
/// through Financial Connections, which this sandbox does not run: `bank_account[account]` is refused.
/// Updating and deleting saved details (`consumers/payment_details/{id}`, the wallet's own management UI)
/// are not served: a `{id}` route beside `list` and `share` would make those paths ambiguous.
struct PaymentDetailsRoutes: Sendable {
    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        routes.client(&router, "POST", "/v1/consumers/payment_details/list", Operations.listPaymentDetails) {
            request, caller, body in
            let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
            let types = try StripeErrors.fields(body).optionalList("types", maxCount: 4, maxLength: 32)
            let details = try context.database.read { connection in
                try LinkPaymentDetails.list(connection, consumerId: session.consumerId)
            }
            return [
                "redacted_payment_details": .array(
                    details.filter { types?.contains($0.type) ?? true }.map(\.json))
            ]
        }
        routes.client(&router, "POST", "/v1/consumers/payment_details", Operations.createPaymentDetails) {
            request, caller, body in
            try create(request, caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/payment_details/share", Operations.sharePaymentDetails) {
            request, caller, body in
            try share(request, caller: caller, body: body)
        }
    }

    func create(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let fields = StripeErrors.fields(body)
        let method: TestPaymentMethod
        switch try fields.required("type", maxLength: 32) {
        case "card":
            guard let card = try fields.object("card") else {
                throw StripeErrors.invalid("parameter_missing", "Missing card details.", param: "card")
            }
            method = try PaymentMethodRoutes.card(card, wallet: nil)
        case "bank_account":
            throw StripeErrors.invalid(
                "financial_connections_unsupported",
                "Bank accounts reach Link through Financial Connections, which this sandbox does not run; create a us_bank_account payment method instead.",
                param: "bank_account[account]")
        default:
            throw fields.invalid("type", "type must be card or bank_account.")
        }
        var billing: [(String, JSONValue)] = []
        if let email = try fields.optional("billing_email_address", maxLength: 800) {
            billing.append(("billing_email_address", .string(email.lowercased())))
        }
        if let address = try fields.optionalStringMap("billing_address") {
            billing.append(("billing_address", address))
        }
        let details = LinkPaymentDetails(
            id: context.ids.id(prefix: IdPrefix.linkPaymentDetails), consumerId: session.consumerId, method: method,
            billing: .object(billing), isDefault: try fields.optionalBool("is_default") ?? false)
        return try context.database.transaction { connection in
            try details.insert(
                connection, projectId: caller.projectId, now: context.nowMilliseconds,
                dialect: context.database.dialect)
            guard let saved = try LinkPaymentDetails.find(connection, id: details.id, consumerId: session.consumerId)
            else { throw StripeErrors.missing("payment details") }
            return ["redacted_payment_details": saved.json]
        }
    }

    /// Makes a payment method (`pm_…`) of saved details: `PaymentDetailsShareResponse` requires
    /// `payment_method`, which `STPPaymentMethod.decodedObject` reads with `id` required.
    func share(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let fields = StripeErrors.fields(body)
        let detailsId = try fields.required("id", maxLength: 64)
        if let expected = try fields.optional("expected_payment_method_type", maxLength: 32),
            !["card", "us_bank_account", "link"].contains(expected)
        {
            throw fields.invalid("expected_payment_method_type", "expected_payment_method_type is card or link.")
        }
        let methodId = context.ids.id(prefix: IdPrefix.paymentMethod)
        let now = context.nowMilliseconds
        return try context.database.transaction { connection in
            guard let details = try LinkPaymentDetails.find(connection, id: detailsId, consumerId: session.consumerId)
            else { throw StripeErrors.missing("payment details", param: "id") }
            try PaymentMethodStore(connection: connection).insertMethod(
                id: methodId, projectId: caller.projectId, details.method, now: now)
            return [
                "payment_method": details.method.methodJSON(
                    id: methodId, livemode: caller.livemode, created: now / 1000)
            ]
        }
    }
}

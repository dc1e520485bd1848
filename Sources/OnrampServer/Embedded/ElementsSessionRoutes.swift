import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// `GET /v1/elements/sessions`: the deferred-intent elements session `CryptoOnrampCoordinator.create`
/// loads first (stripe-ios `LinkController.create` → `PaymentSheetLoader`). Its answer holds what
/// `STPElementsSession.decodedObject` requires (`session_id`,
/// `payment_method_preference.ordered_payment_method_types`) and the Link settings the crypto flow needs:
/// `link_mobile_use_attestation_endpoints` (without it `deviceCanUseNativeLink` is false and creation fails
/// with `missingAppAttestation`) and passthrough mode (Link payment details are shared as payment methods).
/// The 2026 SDK also sends `Stripe-Mobile-Session-Contract` and requires it back with a matching
/// `mobile_payment_element` (``MobileSessionContract``); every answer carries both, which older SDKs ignore.
/// Nothing is stored: the session id only ties the SDK's later lookups together.
struct ElementsSessionRoutes: Sendable {
    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    /// The payment method types the sandbox offers, in the order the SDK shows them.
    static let paymentMethodTypes = ["card", "link", "us_bank_account"]

    func retrieveElementsSession(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws
        -> HTTPResponse
    {
        let contract = try MobileSessionContract.answering(request.headers[MobileSessionContract.headerName])
        let type = request.queryValue("type") ?? "deferred_intent"
        guard type == "deferred_intent" else {
            throw StripeErrors.invalid(
                "parameter_invalid", "Only type=deferred_intent sessions are served here.", param: "type")
        }
        if let mode = request.queryValue("deferred_intent[mode]"), !["setup", "payment"].contains(mode) {
            throw StripeErrors.invalid(
                "parameter_invalid", "deferred_intent[mode] is setup or payment.", param: "deferred_intent[mode]")
        }
        var response = HTTPResponse.json(session(livemode: caller.livemode, contract: contract))
        response.headers.set(MobileSessionContract.headerName, contract.headerValue)
        return response
    }

    private func session(livemode: Bool, contract: MobileSessionContract) -> JSONValue {
        let types = JSONValue.array(Self.paymentMethodTypes.map { .string($0) })
        return [
            "object": "elements_session",
            "session_id": .string(context.ids.id(prefix: IdPrefix.elementsSession)),
            "config_id": .string(context.ids.id(prefix: IdPrefix.elementsConfig)),
            "livemode": .bool(livemode),
            "merchant_country": "US",
            "apple_pay_preference": "enabled",
            "ordered_payment_method_types_and_wallets": ["card", "apple_pay", "link", "us_bank_account"],
            "payment_method_preference": [
                "object": "payment_method_preference", "type": "deferred_intent", "country_code": "US",
                "ordered_payment_method_types": types,
            ],
            "link_settings": [
                "link_funding_sources": ["CARD", "BANK_ACCOUNT"],
                "link_mobile_use_attestation_endpoints": true,
                "link_passthrough_mode_enabled": true,
            ],
            "mobile_payment_element": contract.paymentElement(types: Self.paymentMethodTypes),
        ]
    }
}

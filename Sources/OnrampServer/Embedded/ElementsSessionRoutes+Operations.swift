import HTTPServer
import OnrampServices
import OnrampWire

extension ElementsSessionRoutes {
    /// The OpenAPI operation of the elements session.
    enum Operations {
        /// The query `makeElementsSessionsParams` (stripe-ios `STPAPIClient+PaymentSheet.swift`) sends.
        static let query: [APIParameter] = [
            APIParameter("type", .enumeration(["deferred_intent"])),
            APIParameter("key", .string(maxLength: 256)),
            APIParameter("deferred_intent[mode]", .enumeration(["setup", "payment"])),
            APIParameter("deferred_intent[setup_future_usage]", .string(maxLength: 32)),
            APIParameter("deferred_intent[currency]", .string(maxLength: 3)),
            APIParameter("locale", .string(maxLength: 35)),
            APIParameter("mobile_app_id", .string(maxLength: 256)),
            APIParameter("mobile_session_id", .string(maxLength: 128)),
        ]

        /// The elements session.
        static let elementsSession = APISchema.object(
            [
                "object": .constant("elements_session"), "session_id": .string, "config_id": .string,
                "livemode": .boolean, "merchant_country": .string, "apple_pay_preference": .string,
                "ordered_payment_method_types_and_wallets": .array(.string),
                "payment_method_preference": .object(
                    [
                        "object": .constant("payment_method_preference"), "type": .constant("deferred_intent"),
                        "country_code": .string, "ordered_payment_method_types": .array(.string),
                    ], required: ["ordered_payment_method_types"]),
                "link_settings": .object(
                    [
                        "link_funding_sources": .array(.string), "link_mobile_use_attestation_endpoints": .boolean,
                        "link_passthrough_mode_enabled": .boolean,
                    ], required: ["link_mobile_use_attestation_endpoints"]),
                "mobile_payment_element": MobileSessionContract.paymentElementSchema,
            ], required: ["session_id", "payment_method_preference", "link_settings", "mobile_payment_element"])

        /// Retrieves an elements session.
        static let retrieveElementsSession = APIOperation.stripe(
            "GET /v1/elements/sessions",
            "retrieveElementsSession",
            "The deferred-intent elements session the crypto onramp SDK loads when its coordinator is created.",
            tag: "Link", auth: .anyKey, query: query,
            headers: [
                APIParameter(
                    MobileSessionContract.headerName,
                    APISchema.string(maxLength: 64).described(
                        "`major=<integer>; revision=<16 lowercase hex>` (the 2026 SDKs); the answer carries the same "
                            + "header with the major sent and our revision, repeated in `mobile_payment_element`."))
            ], response: elementsSession)
    }
}

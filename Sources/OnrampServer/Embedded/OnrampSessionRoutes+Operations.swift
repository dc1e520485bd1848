import HTTPServer
import OnrampServices
import OnrampWire

extension OnrampSessionRoutes {
    /// The OpenAPI operations of the partner-backend onramp session routes.
    enum Operations {
        /// The `Idempotency-Key` of a POST without a form (the `.stripe` builder adds it to form routes).
        static let idempotencyKey = APIParameter("Idempotency-Key", .string(maxLength: 255))

        /// The `crypto.onramp_session` object.
        static let onrampSession = CryptoOnrampSession.schema

        /// The creation form's purchase: what to buy, on which network, for which wallet.
        static let createForm = APISchema.object(
            [
                "ui_mode": .enumeration(["headless"]), "crypto_customer_id": .string(minLength: 1, maxLength: 64),
                "source_currency": .string(minLength: 1, maxLength: 8),
                "destination_currency": .string(minLength: 1, maxLength: 8),
                "destination_network": .string(minLength: 1, maxLength: 32),
                "destination_currencies": .array(.string(maxLength: 256), maxItems: 50),
                "destination_networks": .array(.string(maxLength: 256), maxItems: 50),
                "wallet_address": .string(minLength: 1, maxLength: 128),
                "settlement_speed": .enumeration(CryptoOnrampSession.SettlementSpeed.allCases.map(\.rawValue)),
                "customer_ip_address": .string(maxLength: 64), "payment_token": .string(minLength: 1, maxLength: 64),
                "source_amount": .decimalString.described("This or destination_amount, not both."),
                "destination_amount": .decimalString,
                "metadata": APISchema.map(.string(maxLength: 500)).described("At most 50 keys of 1 to 40 bytes."),
            ],
            required: [
                "crypto_customer_id", "source_currency", "destination_currency", "destination_network",
                "wallet_address", "payment_token",
            ])

        /// Creates a session.
        static let createOnrampSession = APIOperation.stripe(
            "POST /v1/crypto/onramp_sessions",
            "createOnrampSession", "Creates a headless onramp session with a quote (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken, form: createForm, response: onrampSession)

        /// Retrieves a session.
        static let retrieveOnrampSession = APIOperation.stripe(
            "GET /v1/crypto/onramp_sessions/{id}",
            "retrieveOnrampSession", "Returns an onramp session.", tag: "Embedded", auth: .secretKey,
            response: onrampSession)

        /// The list's filters and pagination.
        static let listQuery = [
            APIParameter("status"), APIParameter("destination_currency"), APIParameter("destination_network"),
            APIParameter("created", .integerString.described("Unix seconds: sessions created in that second.")),
            APIParameter("created[gte]", .integerString), APIParameter("created[gt]", .integerString),
            APIParameter("created[lte]", .integerString), APIParameter("created[lt]", .integerString),
            APIParameter("limit", .integerString), APIParameter("starting_after"), APIParameter("ending_before"),
        ]

        /// Lists sessions.
        static let listOnrampSessions = APIOperation.stripe(
            "GET /v1/crypto/onramp_sessions",
            "listOnrampSessions", "Lists the onramp sessions of the key's mode, newest first.", tag: "Embedded",
            auth: .secretKey, query: listQuery,
            response: StripeList<CryptoOnrampSession>.schema(
                url: .constant("/v1/crypto/onramp_sessions"), item: onrampSession))

        /// Refreshes a session's quote.
        static let refreshOnrampSessionQuote = APIOperation.stripe(
            "POST /v1/crypto/onramp_sessions/{id}/quote",
            "refreshOnrampSessionQuote", "Refreshes the quote of an onramp session (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken, headers: [idempotencyKey], response: onrampSession)

        /// Checks a session out.
        static let checkoutOnrampSession = APIOperation.stripe(
            "POST /v1/crypto/onramp_sessions/{id}/checkout",
            "checkoutOnrampSession", "Charges the payment token and starts delivery (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken,
            form: .object(["mandate_data": APISchema.anyObject.described("Present: the ACH mandate is accepted.")]),
            response: onrampSession)
    }
}

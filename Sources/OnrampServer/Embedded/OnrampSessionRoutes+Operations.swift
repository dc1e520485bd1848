import HTTPServer
import OnrampCore
import OnrampWire

extension OnrampSessionRoutes {
    /// The OpenAPI operations of the partner-backend onramp session routes.
    enum Operations {
        /// The `Idempotency-Key` of a POST without a form (the `.stripe` builder adds it to form routes).
        static let idempotencyKey = APIParameter("Idempotency-Key", .string(maxLength: 255))

        /// A decimal amount, or null.
        static let optionalAmount = APISchema.decimalString.nullable

        /// The session's fees.
        static let fees = APISchema.object(
            ["network_fee_amount": optionalAmount, "transaction_fee_amount": optionalAmount],
            required: ["network_fee_amount", "transaction_fee_amount"])

        /// The session's `last_error`.
        static let lastError = APISchema.enumeration(OnrampSessionLastError.allCases.map(\.rawValue)).nullable

        /// The purchase: amounts, currencies, network, wallet and quote.
        static let transactionDetails = APISchema.object(
            [
                "destination_amount": optionalAmount, "destination_currency": .string.nullable,
                "destination_network": .string, "destination_currencies": APISchema.array(.string).nullable,
                "destination_networks": APISchema.array(.string).nullable, "fees": fees, "last_error": lastError,
                "lock_wallet_address": .boolean, "quote_expiration": .integer,
                "settlement_speed": .enumeration(["instant", "standard"]), "source_amount": optionalAmount,
                "source_currency": .string.nullable, "source_total_amount": optionalAmount,
                "transaction_id": .string.nullable, "wallet_address": .string.nullable,
                "wallet_addresses": .map(.string.nullable),
            ],
            required: [
                "destination_amount", "destination_currency", "destination_network", "destination_currencies",
                "destination_networks", "fees", "last_error", "lock_wallet_address", "quote_expiration",
                "settlement_speed", "source_amount", "source_currency", "source_total_amount", "transaction_id",
                "wallet_address", "wallet_addresses",
            ])

        /// The 3-D Secure page to send the user to.
        static let nextAction = APISchema.object(
            [
                "type": .constant("redirect_to_url"),
                "redirect_to_url": .object(["url": .uri], required: ["url"]),
            ], required: ["type", "redirect_to_url"])

        /// The `crypto.onramp_session` object.
        static let onrampSession = APISchema.object(
            [
                "id": .string, "object": .constant("crypto.onramp_session"), "client_secret": .string,
                "created": .integer, "livemode": .boolean,
                "status": .enumeration(OnrampSession.Status.allCases.map(\.rawValue)), "crypto_customer_id": .string,
                "payment_token": .string.nullable, "ui_mode": .constant("headless"), "next_action": nextAction.nullable,
                "kyc_details_provided": .boolean, "metadata": APISchema.map(.string).nullable,
                "redirect_url": APISchema.uri.nullable, "transaction_details": transactionDetails,
            ],
            required: [
                "id", "object", "client_secret", "created", "livemode", "status", "crypto_customer_id",
                "payment_token", "ui_mode", "next_action", "kyc_details_provided", "metadata", "redirect_url",
                "transaction_details",
            ])

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
                "settlement_speed": .enumeration(["instant", "standard"]),
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
            "createOnrampSession", "Creates a headless onramp session with a quote (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken, form: createForm, response: onrampSession)

        /// Retrieves a session.
        static let retrieveOnrampSession = APIOperation.stripe(
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
            "listOnrampSessions", "Lists the onramp sessions of the key's mode, newest first.", tag: "Embedded",
            auth: .secretKey, query: listQuery,
            response: .object(
                [
                    "object": .constant("list"), "data": .array(onrampSession), "has_more": .boolean,
                    "url": .string,
                ], required: ["object", "data", "has_more", "url"]))

        /// Refreshes a session's quote.
        static let refreshOnrampSessionQuote = APIOperation.stripe(
            "refreshOnrampSessionQuote", "Refreshes the quote of an onramp session (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken, headers: [idempotencyKey], response: onrampSession)

        /// Checks a session out.
        static let checkoutOnrampSession = APIOperation.stripe(
            "checkoutOnrampSession", "Charges the payment token and starts delivery (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken,
            form: .object(["mandate_data": APISchema.anyObject.described("Present: the ACH mandate is accepted.")]),
            response: onrampSession)
    }
}

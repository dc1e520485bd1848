import HTTPServer
import OnrampServices
import OnrampWire

extension DepositAddressRoutes {
    /// The OpenAPI operations of the deposit addresses.
    enum Operations {
        /// The `crypto.deposit_address` object.
        static let depositAddress = CryptoDepositAddress.schema.refining([
            "network": .enumeration(DepositAddressService.networks),
            "supported_tokens": .array(
                CryptoDepositAddress.SupportedToken.schema.refining(["token_currency": .constant("usdc")])),
        ])

        static let createDepositAddress = APIOperation.stripe(
            "POST /v1/crypto/deposit_addresses",
            "createDepositAddress", "Makes an on-chain address where stablecoins can be received.", tag: "Embedded",
            auth: .secretKey,
            form: .object(
                [
                    "network": .enumeration(DepositAddressService.networks), "customer": .string(maxLength: 255),
                    "metadata": .object([:]),
                ], required: ["network"]),
            response: depositAddress)

        static let retrieveDepositAddress = APIOperation.stripe(
            "GET /v1/crypto/deposit_addresses/{id}",
            "retrieveDepositAddress", "Retrieves a deposit address.", tag: "Embedded", auth: .secretKey,
            response: depositAddress)

        /// A deposit's PaymentIntent.
        static let depositPaymentIntent = APISchema.object(
            [
                "id": .string, "object": .constant("payment_intent"), "amount": .integer, "amount_capturable": .integer,
                "amount_received": .integer, "capture_method": .constant("automatic"), "client_secret": .string,
                "created": .integer,
                "currency": .constant("usd"), "customer": .string.nullable, "description": .string,
                "livemode": .boolean, "metadata": .anyObject, "next_action": .anyObject.nullable,
                "payment_method_options": .anyObject, "payment_method_types": .array(.constant("crypto")),
                "status": .constant("succeeded"),
            ],
            required: [
                "id", "object", "amount", "amount_received", "client_secret", "created", "currency", "livemode",
                "status",
                "payment_method_types",
            ])

        static let simulateDeposit = APIOperation.stripe(
            "POST /v1/test_helpers/crypto/deposit_addresses/{id}/deposit",
            "simulateDeposit",
            "Test helper: receives stablecoins at a deposit address as an on-chain transfer would, capturing a "
                + "deposit-mode PaymentIntent and sending payment_intent.succeeded (test mode only).",
            tag: "Embedded", auth: .secretKey,
            form: .object(
                [
                    "amount": .string(maxLength: 32), "token_currency": .constant("usdc"),
                    "transaction_hash": .string(maxLength: 128),
                ], required: ["amount"]),
            response: depositPaymentIntent)

        static let listDepositAddresses = APIOperation.stripe(
            "GET /v1/crypto/deposit_addresses",
            "listDepositAddresses", "Lists the deposit addresses, newest first.", tag: "Embedded", auth: .secretKey,
            query: [
                APIParameter("address", .string(maxLength: 128)), APIParameter("customer", .string(maxLength: 255)),
                APIParameter("network", .enumeration(DepositAddressService.networks)),
                APIParameter("limit", .integerString), APIParameter("starting_after", .string(maxLength: 64)),
                APIParameter("ending_before", .string(maxLength: 64)),
            ],
            response: StripeList<CryptoDepositAddress>.schema(
                url: .constant("/v1/crypto/deposit_addresses"), item: depositAddress))
    }
}

import HTTPServer
import OnrampServices
import OnrampWire

extension OnrampQuoteRoutes {
    /// The OpenAPI operations of the onramp quotes and transaction limits.
    enum Operations {
        /// The quote query: the fiat side, exactly one amount, the destinations to quote.
        static let quoteQuery = [
            APIParameter("source_currency", .string.described("Default usd.")),
            APIParameter("source_amount", .decimalString.described("This or destination_amount, not both.")),
            APIParameter("destination_amount", .decimalString),
            APIParameter(
                "destination_currencies", .array(.string).described("Also `name[]=a` or `name=a,b`; default usdc.")),
            APIParameter("destination_networks", .array(.string)),
        ]

        /// The fees of one quote.
        static let quoteFees = APISchema.object(
            ["network_fee_monetary": .decimalString, "transaction_fee_monetary": .decimalString],
            required: ["network_fee_monetary", "transaction_fee_monetary"])

        /// One quote: a destination currency on a network.
        static let quote = APISchema.object(
            [
                "id": .string, "destination_currency": .string, "destination_network": .string,
                "destination_amount": .decimalString, "source_total_amount": .decimalString, "fees": quoteFees,
                "expires_at": .integer,
            ],
            required: [
                "id", "destination_currency", "destination_network", "destination_amount", "source_total_amount",
                "fees", "expires_at",
            ])

        /// The `crypto.onramp_quotes` object: the quotes by network (a network without quotes maps to `[]`).
        static let quotes = APISchema.object(
            [
                "id": .string, "object": .constant("crypto.onramp_quotes"), "livemode": .boolean,
                "rate_fetched_at": .integer, "source_currency": .string, "source_amount": .decimalString.nullable,
                "destination_network_quotes": .map(.array(quote)),
            ],
            required: [
                "id", "object", "livemode", "rate_fetched_at", "source_currency", "source_amount",
                "destination_network_quotes",
            ])

        /// Quotes every destination.
        static let listOnrampQuotes = APIOperation.stripe(
            "GET /v1/crypto/onramp/quotes",
            "listOnrampQuotes", "Quotes a purchase for each destination network and currency.", tag: "Embedded",
            auth: .secretKey, query: quoteQuery, response: quotes)

        /// The per-transaction limit of each KYC tier.
        static let tierLimits = APISchema.object(
            ["l0": .decimalString, "l1": .decimalString, "l2": .decimalString], required: ["l0", "l1", "l2"])

        /// The `crypto.onramp_transaction_limits` object.
        static let transactionLimits = APISchema.object(
            [
                "object": .constant("crypto.onramp_transaction_limits"), "livemode": .boolean,
                "currency": .constant("usd"), "per_transaction": tierLimits,
            ], required: ["object", "livemode", "currency", "per_transaction"])

        /// Returns the transaction limits.
        static let retrieveOnrampTransactionLimits = APIOperation.stripe(
            "GET /v1/crypto/onramp_transaction_limits",
            "retrieveOnrampTransactionLimits", "Returns the per-transaction limit of each KYC tier.",
            tag: "Embedded", auth: .secretKey, response: transactionLimits)
    }
}

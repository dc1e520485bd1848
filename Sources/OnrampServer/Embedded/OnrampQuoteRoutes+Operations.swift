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

        /// Quotes every destination.
        static let listOnrampQuotes = APIOperation.stripe(
            "GET /v1/crypto/onramp/quotes",
            "listOnrampQuotes", "Quotes a purchase for each destination network and currency.", tag: "Embedded",
            auth: .secretKey, query: quoteQuery, response: CryptoOnrampQuotes.schema)

        /// Returns the transaction limits.
        static let retrieveOnrampTransactionLimits = APIOperation.stripe(
            "GET /v1/crypto/onramp_transaction_limits",
            "retrieveOnrampTransactionLimits", "Returns the per-transaction limit of each KYC tier.",
            tag: "Embedded", auth: .secretKey,
            response: CryptoOnrampTransactionLimits.schema.refining(["currency": .constant("usd")]))
    }
}

import HTTPServer
import OnrampServices
import OnrampWire

extension CryptoCustomerRoutes {
    /// The OpenAPI operations of the partner-backend customer routes (secret key and the user's token).
    enum Operations {
        /// The pagination of a customer's lists: newest first, `limit` 1 to 100 (default 100).
        static let pagination = [
            APIParameter("limit", .integerString), APIParameter("starting_after", .string),
        ]

        /// A Stripe list object of `item`.
        static func list(_ item: APISchema) -> APISchema {
            StripeList<JSONValue>.schema(url: .string, item: item)
        }

        /// Retrieves a customer.
        static let retrieveCryptoCustomer = APIOperation.stripe(
            "GET /v1/crypto/customers/{id}",
            "retrieveCryptoCustomer", "Returns a crypto customer with its KYC tiers (scope kyc.status:read).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken, response: CryptoInternalRoutes.Operations.cryptoCustomer)

        /// Lists a customer's wallets.
        static let listCryptoConsumerWallets = APIOperation.stripe(
            "GET /v1/crypto/customers/{id}/crypto_consumer_wallets",
            "listCryptoConsumerWallets", "Lists a crypto customer's wallets (scope crypto:ramp).", tag: "Embedded",
            auth: .secretKeyAndOAuthToken, query: pagination,
            response: list(CryptoConsumerWallet.schema))

        /// Lists a customer's payment tokens.
        static let listCryptoPaymentTokens = APIOperation.stripe(
            "GET /v1/crypto/customers/{id}/payment_tokens",
            "listCryptoPaymentTokens", "Lists a crypto customer's payment tokens (scope crypto:ramp).",
            tag: "Embedded", auth: .secretKeyAndOAuthToken, query: pagination,
            response: list(CryptoInternalRoutes.Operations.paymentToken))
    }
}

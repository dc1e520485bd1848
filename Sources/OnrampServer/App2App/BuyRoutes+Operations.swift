import HTTPServer
import OnrampServices
import OnrampWire

extension BuyRoutes {
    /// The OpenAPI operations of Buy Config, Buy Options and Buy Quote.
    enum Operations {
        /// The tag of the Buy operations.
        static let tag = "Buy"

        // MARK: - Buy Config

        /// An object holding only an id.
        static let identified = APISchema.object(["id": .string], required: ["id"])

        /// A supported country, its subdivisions and its payment methods.
        static let country = APISchema.object(
            ["id": .string, "subdivisions": .array(.string), "payment_methods": .array(identified)],
            required: ["id", "subdivisions", "payment_methods"])

        /// The supported countries.
        static let config = APISchema.object(["countries": .array(country)], required: ["countries"])

        /// `GET /onramp/v1/buy/config`.
        static let getBuyConfig = APIOperation.cdp(
            "GET /onramp/v1/buy/config",
            "getBuyConfig", "Lists the supported countries, their subdivisions and payment methods.", tag: tag,
            auth: .apiKeyJWT, response: config)

        // MARK: - Buy Options

        /// A payment method's limits in one fiat currency.
        static let limit = APISchema.object(
            ["id": .string, "min": .string, "max": .string], required: ["id", "min", "max"])

        /// A fiat currency and its payment methods' limits.
        static let paymentCurrency = APISchema.object(
            ["id": .string, "limits": .array(limit)], required: ["id", "limits"])

        /// A network an asset is offered on.
        static let network = APISchema.object(
            ["name": .string, "display_name": .string, "chain_id": .string, "contract_address": .string],
            required: ["name", "display_name", "chain_id", "contract_address"])

        /// An asset and the networks it is offered on.
        static let purchaseCurrency = APISchema.object(
            ["id": .string, "name": .string, "symbol": .string, "networks": .array(network)],
            required: ["id", "name", "symbol", "networks"])

        /// The payment and purchase currencies of a country.
        static let options = APISchema.object(
            ["payment_currencies": .array(paymentCurrency), "purchase_currencies": .array(purchaseCurrency)],
            required: ["payment_currencies", "purchase_currencies"])

        /// `GET /onramp/v1/buy/options`.
        static let getBuyOptions = APIOperation.cdp(
            "GET /onramp/v1/buy/options",
            "getBuyOptions", "Lists the fiat currencies with their limits and the assets offered in a country.",
            tag: tag, auth: .apiKeyJWT,
            query: [
                APIParameter(
                    "country", APISchema.string.described("A supported ISO 3166-1 alpha-2 code."), required: true),
                APIParameter(
                    "networks", APISchema.string.described("Comma-separated network names the assets are listed on.")),
            ],
            response: options)

        // MARK: - Buy Quote

        /// The payment methods Buy Quote takes, in either API's spelling, case-insensitively.
        static let paymentMethod = APISchema.enumeration([
            "UNSPECIFIED", "CARD", "GUEST_CHECKOUT_CARD", "ACH_BANK_ACCOUNT", "ACH", "APPLE_PAY",
            "GUEST_CHECKOUT_APPLE_PAY", "FIAT_WALLET", "CRYPTO_ACCOUNT", "CRYPTO_WALLET", "PAYPAL",
        ]).described("Case-insensitive.")

        /// A camelCase spelling of a Buy Quote field, read when the snake_case one is absent or null.
        static func alias(of field: String) -> APISchema {
            APISchema.string.described("The API reference's spelling of \(field), read when \(field) is absent.")
        }

        /// A Buy Quote request: the guide's snake_case fields, or the API reference's camelCase ones.
        static let quoteRequest = APISchema.object(
            [
                "purchase_currency": .string(minLength: 1, maxLength: 64),
                "purchase_network": APISchema.string(maxLength: 64).described("ethereum when absent."),
                "payment_amount": .decimalString,
                "payment_currency": .string(minLength: 1, maxLength: 8),
                "payment_method": paymentMethod,
                "country": APISchema.string(minLength: 1, maxLength: 2).described("A supported ISO 3166-1 code."),
                "subdivision": .string(maxLength: 6),
                "destination_address": APISchema.string(maxLength: 128).described(
                    "With an address, the answer carries a one-click onramp_url for this quote."),
                "purchaseCurrency": alias(of: "purchase_currency"),
                "purchaseNetwork": alias(of: "purchase_network"),
                "paymentAmount": alias(of: "payment_amount"),
                "paymentCurrency": alias(of: "payment_currency"),
                "paymentMethod": alias(of: "payment_method"),
                "destinationAddress": alias(of: "destination_address"),
            ], required: ["purchase_currency", "payment_amount", "payment_currency", "payment_method", "country"])

        /// An amount and its currency.
        static let amount = APISchema.object(["value": .string, "currency": .string], required: ["value", "currency"])

        /// A quote, with a one-click `onramp_url` when the request named a destination address.
        static let quote = APISchema.object(
            [
                "payment_total": amount, "payment_subtotal": amount, "purchase_amount": amount,
                "coinbase_fee": amount, "network_fee": amount, "quote_id": .string,
                "onramp_url": APISchema.uri.described("Only when the request named a destination_address."),
            ],
            required: [
                "payment_total", "payment_subtotal", "purchase_amount", "coinbase_fee", "network_fee", "quote_id",
            ])

        /// `POST /onramp/v1/buy/quote`.
        static let createBuyQuote = APIOperation.cdp(
            "POST /onramp/v1/buy/quote",
            "createBuyQuote", "Quotes a purchase; with a destination address, also a one-click hosted onramp URL.",
            tag: tag, auth: .apiKeyJWT, body: quoteRequest, response: quote)
    }
}

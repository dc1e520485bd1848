import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

extension OfframpRoutes {
    /// The OpenAPI operations of the offramp: the sell page, the sell transactions API and the sell quote.
    enum Operations {
        // MARK: - Schemas

        /// An amount as a decimal string of at most 40 characters (`0.05`).
        static let amount = APISchema.string(maxLength: 40, pattern: "^[0-9]+(\\.[0-9]+)?$")
        /// A cash-out method (Coinbase's `defaultCashoutMethod` names).
        static let cashoutMethod = APISchema.enumeration(OfframpService.cashoutMethods.map { $0.name })
        /// A Sell Quote's `paymentMethod`: a cash-out method or one only quoted.
        static let quotedMethod = APISchema.enumeration(
            (OfframpService.cashoutMethods + OfframpService.quotedOnlyMethods).map { $0.name })

        /// An amount of money: `{value, currency}`.
        static let money = OfframpTransactionObject.money

        /// A sell transaction (snake_case, as Coinbase's demo reads it), with its statuses and cash-out methods.
        static let sell = OfframpTransactionObject.schema.refining([
            "status": .enumeration(OfframpTransaction.Status.allCases.map(\.rawValue)),
            "payment_method": cashoutMethod,
        ])

        /// A page of a user's sells, with their total count.
        static let userSells = APISchema.object(
            [
                "transactions": .array(sell),
                "next_page_key": APISchema.string.described("Empty on the last page."),
                "total_count": .integerString,
            ], required: ["transactions", "next_page_key", "total_count"])

        /// A page of the project's sells.
        static let sells = APISchema.object(
            ["transactions": .array(sell), "next_page_key": APISchema.string.described("Empty on the last page.")],
            required: ["transactions", "next_page_key"])

        /// `POST /onramp/v1/sell/quote`.
        static let quoteRequest = APISchema.object(
            [
                "country": APISchema.string(minLength: 1, maxLength: 2).described("A supported ISO 3166-1 code."),
                "paymentMethod": quotedMethod,
                "sellCurrency": APISchema.string(minLength: 1, maxLength: 64),
                "sellAmount": amount,
                "cashoutCurrency": APISchema.string(minLength: 1, maxLength: 8),
                "sellNetwork": APISchema.string(minLength: 1, maxLength: 64).described("Default: the asset's first."),
                "sourceAddress": APISchema.string(maxLength: 128),
                "redirectUrl": APISchema.string(maxLength: 2048),
                "partnerUserRef": APISchema.string(maxLength: 50),
                "partnerUserId": APISchema.string(maxLength: 50).described("Read when partnerUserRef is absent."),
                "clientIp": APISchema.string(maxLength: 45).described("Accepted; the sandbox does not use it."),
            ],
            required: ["country", "paymentMethod", "sellCurrency", "sellAmount", "cashoutCurrency"]
        ).described(
            "Each field is also read in snake_case (sell_amount). With sourceAddress, redirectUrl and partnerUserRef "
                + "the answer carries a one-click offramp_url.")

        /// `GET /onramp/v1/sell/config`.
        static let getSellConfig = APIOperation.cdp(
            "GET /onramp/v1/sell/config",
            "getSellConfig", "Lists the countries a sell may cash out in, with their cash-out methods.", tag: "Offramp",
            auth: .apiKeyJWT,
            response: .object(["countries": .array(BuyRoutes.Operations.country)], required: ["countries"]))

        /// `GET /onramp/v1/sell/options`.
        static let getSellOptions = APIOperation.cdp(
            "GET /onramp/v1/sell/options",
            "getSellOptions", "Lists the cash-out currencies with their limits and the assets that can be sold.",
            tag: "Offramp", auth: .apiKeyJWT,
            query: [
                APIParameter(
                    "country", APISchema.string.described("A supported ISO 3166-1 alpha-2 code."), required: true),
                APIParameter("subdivision", APISchema.string(maxLength: 8)),
                APIParameter(
                    "networks", APISchema.string.described("Comma-separated network names the assets are listed on.")),
            ],
            response: .object(
                [
                    "cashout_currencies": .array(BuyRoutes.Operations.paymentCurrency),
                    "sell_currencies": .array(BuyRoutes.Operations.purchaseCurrency),
                ], required: ["cashout_currencies", "sell_currencies"]))

        /// The sell quote.
        static let quote = APISchema.object(
            [
                "cashout_total": money, "cashout_subtotal": money, "coinbase_fee": money, "sell_amount": money,
                "quote_id": .string,
                "offramp_url": APISchema.string.described("A sell page preset to this quote, for the user's address."),
            ], required: ["cashout_total", "cashout_subtotal", "coinbase_fee", "sell_amount", "quote_id"])

        // MARK: - The API

        /// The paging query of the sell lists.
        static let pageQuery = [
            APIParameter(
                "page_size",
                APISchema.integer(minimum: 1, maximum: 1000).described("Default 1; also read as pageSize.")),
            APIParameter(
                "page_key", APISchema.string(maxLength: 256).described("A next_page_key; also read as pageKey.")),
        ]

        /// The date filters of the project's sell list.
        static let dateQuery = [
            APIParameter(
                "start_date", APISchema.string.described("An RFC 3339 time or a date; also read as startDate.")),
            APIParameter(
                "end_date",
                APISchema.string.described("An RFC 3339 time (exclusive) or a date (inclusive); also read as endDate.")),
        ]

        /// `GET /onramp/v1/sell/user/{partnerUserRef}/transactions`.
        static let listUserSells = APIOperation.cdp(
            "GET /onramp/v1/sell/user/{partnerUserRef}/transactions",
            "listUserSellTransactions", "Lists a user's sell transactions, newest first.", tag: "Offramp",
            auth: .apiKeyJWT, query: pageQuery, response: userSells)

        /// `GET /onramp/v1/sell/transactions`.
        static let listSells = APIOperation.cdp(
            "GET /onramp/v1/sell/transactions",
            "listSellTransactions", "Lists the project's sell transactions, newest first.", tag: "Offramp",
            auth: .apiKeyJWT, query: pageQuery + dateQuery, response: sells)

        /// `POST /onramp/v1/sell/quote`.
        static let createQuote = APIOperation.cdp(
            "POST /onramp/v1/sell/quote",
            "createSellQuote", "Prices selling an amount of crypto for cash.", tag: "Offramp", auth: .apiKeyJWT,
            body: quoteRequest, response: quote)

        // MARK: - The sell page

        /// What a sell link carries: its single-use token and the presets of cbpay-js `generateOffRampURL`.
        static let sellLinkQuery = [
            APIParameter("sessionToken", .string(minLength: 1, maxLength: 64), required: true),
            APIParameter(
                "partnerUserRef",
                APISchema.string(minLength: 1, maxLength: 50).described("Also read as partnerUserId."),
                required: true),
            APIParameter(
                "redirectUrl",
                HostedOnrampRoutes.Operations.queryURL(minLength: 1).described("Allowlisted by the project."),
                required: true),
            APIParameter("defaultAsset", .string(maxLength: 64)),
            APIParameter("defaultNetwork", .string(maxLength: 64)),
            APIParameter("presetCryptoAmount", .string(maxLength: 40)),
            APIParameter("defaultCashoutMethod", .string(maxLength: 32)),
            APIParameter("fiatCurrency", .string(maxLength: 8)),
            APIParameter(
                "presetFiatAmount",
                APISchema.string(maxLength: 40).described(
                    "Presets the crypto worth this much (when no crypto amount is).")),
            APIParameter(
                "disableEdit",
                APISchema.enumeration(["true", "false"]).described("true: what the URL presets cannot be changed.")),
        ]

        /// The sell page's form: preview, cash out or cancel (which needs only the first three fields).
        static let sellForm = APISchema.object(
            [
                "sessionToken": .string(minLength: 1, maxLength: 64),
                "pageSecret": .string(minLength: 1, maxLength: 64),
                "action": .enumeration(["preview", "cashout", "cancel"]),
                "choice": APISchema.string(maxLength: 4).described("The index of the asset and network to sell."),
                "sellAmount": amount,
                "cashoutMethod": cashoutMethod,
                "fiatCurrency": APISchema.string(maxLength: 8).described("Default USD."),
            ], required: ["sessionToken", "pageSecret", "action"])

        /// `GET /v3/sell/input`.
        static let sellPage = APIOperation.page(
            "GET \(OfframpService.pagePath)",
            "getSellPage", "Opens a sell link (once) and shows what the user may sell.", tag: "Offramp",
            query: sellLinkQuery)

        /// `POST /v3/sell/input`.
        static let submitSellPage = APIOperation.page(
            "POST \(OfframpService.pagePath)",
            "submitSellPage", "Previews the sell, cashes out or cancels, then returns to the partner.",
            tag: "Offramp", form: sellForm)
    }
}

import HTTPServer
import OnrampServices
import OnrampWire

extension HostedOnrampRoutes {
    /// The OpenAPI operations of the hosted onramp: its token and session endpoints and its page.
    enum Operations {
        /// The tag of the hosted onramp operations.
        static let tag = "Hosted onramp"

        /// A URL in a page link's query, at least `minLength` long: visible ASCII (a URL percent-encodes the
        /// rest), so its longest form (2,048 characters, each percent-encoded) stays within the head the HTTP
        /// edge reads.
        static func queryURL(minLength: Int? = nil) -> APISchema {
            APISchema.string(minLength: minLength, maxLength: 2048, pattern: "^[!-~]*$")
        }

        // MARK: - Token

        /// An array of 1 to `maxItems` `items`.
        static func nonEmptyArray(_ items: APISchema, maxItems: Int) -> APISchema {
            APISchema(json: ["type": "array", "items": items.json, "minItems": 1, "maxItems": .integer(maxItems)])
        }

        /// A destination of a token: an address and the networks it may receive on.
        static let destination = APISchema.object(
            [
                "address": .string(minLength: 1, maxLength: 128),
                "blockchains": nonEmptyArray(
                    .string(minLength: 1, maxLength: 64), maxItems: HostedOnrampService.maximumNetworksPerAddress),
            ], required: ["address", "blockchains"])

        /// A token request: where the crypto may go and, optionally, which assets may be bought.
        static let tokenRequest = APISchema.object(
            [
                "addresses": nonEmptyArray(destination, maxItems: HostedOnrampService.maximumDestinations),
                "assets": nonEmptyArray(
                    .string(minLength: 1, maxLength: 64), maxItems: HostedOnrampService.maximumAssets),
                "clientIp": .string(maxLength: 45),
            ], required: ["addresses"])

        /// A session token for the hosted page.
        static let token = APISchema.object(
            [
                "token": APISchema.string.described("Single use: the page's sessionToken, valid for 5 minutes."),
                "channel_id": .string,
            ], required: ["token", "channel_id"])

        /// `POST /onramp/v1/token`.
        static let createHostedOnrampToken = APIOperation.cdp(
            "POST /onramp/v1/token",
            "createHostedOnrampToken", "Creates a single-use session token for the hosted onramp page.", tag: tag,
            auth: .apiKeyJWT, body: tokenRequest, response: token)

        // MARK: - Session

        /// A decimal amount, of which a session takes at most one.
        static let amount = APISchema.decimalString.described(
            "At most one of paymentAmount and purchaseAmount; with one, the URL is a one-click purchase.")

        /// A session request: one asset, network and address, and the presets of the page.
        static let sessionRequest = APISchema.object(
            [
                "purchaseCurrency": .string(minLength: 1, maxLength: 64),
                "destinationNetwork": .string(minLength: 1, maxLength: 64),
                "destinationAddress": .string(minLength: 1, maxLength: 128),
                "paymentAmount": amount,
                "purchaseAmount": amount,
                "paymentCurrency": .string(maxLength: 8),
                "paymentMethod": App2AppRoutes.Operations.paymentMethod,
                "country": .string(pattern: "^[A-Z]{2}$"),
                "subdivision": .string(pattern: "^[A-Za-z0-9]{1,6}$"),
                "redirectUrl": APISchema.string(minLength: 1, maxLength: 2048).described(
                    "An allowlisted https URL, or a URL in an app scheme the project allowlists (scheme://)."),
                "partnerUserRef": .string(maxLength: 50),
                "clientIp": .string(maxLength: 45),
            ], required: ["purchaseCurrency", "destinationNetwork", "destinationAddress"])

        /// A hosted session: its single-use URL and, when the request priced it, the quote.
        static let session = OnrampURLSession.schemaWithOptionalQuote(
            "With an amount, paymentMethod and country (and subdivision in the US).")

        /// `POST /platform/v2/onramp/sessions`.
        static let createHostedOnrampSession = APIOperation.cdp(
            "POST /platform/v2/onramp/sessions",
            "createHostedOnrampSession", "Creates a single-use hosted onramp URL for one asset, network and address.",
            tag: tag, auth: .apiKeyJWT, headers: [EndPartnerRepository.headerParameter], body: sessionRequest,
            status: 201, response: session)

        // MARK: - Page

        /// The query of the page: the token and, for a token's URL, Coinbase's preset parameters.
        static let pageQuery = [
            APIParameter("sessionToken", .string(minLength: 1, maxLength: 64), required: true),
            APIParameter("defaultAsset", .string(maxLength: 64)),
            APIParameter("defaultNetwork", .string(maxLength: 64)),
            APIParameter("presetFiatAmount", APISchema.string(maxLength: 40).described("A decimal amount.")),
            APIParameter(
                "presetCryptoAmount",
                APISchema.string(maxLength: 40).described("A decimal amount; wins over presetFiatAmount.")),
            APIParameter("fiatCurrency", .string(maxLength: 8)),
            APIParameter("defaultPaymentMethod", .string(maxLength: 32)),
            APIParameter("redirectUrl", queryURL()),
            APIParameter("partnerUserId", .string(maxLength: 50)),
            APIParameter(
                "partnerUserRef", APISchema.string(maxLength: 50).described("Read when partnerUserId is absent.")),
        ]

        /// `GET /buy/select-asset`: opening the page spends the token.
        static let openHostedOnrampPage = APIOperation.page(
            "GET \(HostedOnrampService.pagePath)",
            "openHostedOnrampPage", "Opens the hosted onramp page of a token or session (single use).", tag: tag,
            query: pageQuery)

        /// The form the page posts: its credentials, the step and the user's choices.
        static let pageForm = APISchema.object(
            [
                "sessionToken": .string(minLength: 1, maxLength: 64),
                "pageSecret": .string(minLength: 1, maxLength: 64),
                "action": .enumeration(["preview", "change", "confirm", "cancel"]),
                "choice": APISchema.string(maxLength: 4).described("The index of the chosen asset and network."),
                "amountKind": .enumeration(["payment", "purchase"]),
                "amount": .string(maxLength: 40),
                "currency": .string(maxLength: 8),
                "method": .string(maxLength: 32),
            ], required: ["sessionToken", "pageSecret", "action"])

        /// `POST /buy/select-asset`: preview, change, confirm or cancel.
        static let submitHostedOnrampPage = APIOperation.page(
            "POST \(HostedOnrampService.pagePath)",
            "submitHostedOnrampPage", "Previews, changes, confirms or cancels the purchase on the hosted onramp page.",
            tag: tag, form: pageForm)
    }
}

import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// Buy Config, Buy Options and Buy Quote (JWT-authenticated estimates from the catalogue). Buy Quote
/// takes the guide's snake_case body and the API reference's camelCase one, and with a destination
/// address answers a one-click hosted-onramp `onramp_url` as well.
struct BuyRoutes: Sendable {
    let context: ServerContext
    let hosted: HostedOnrampService

    /// `GET /onramp/v1/buy/config`: the catalogue's ``BuyConfig``, payment methods named as the transactions API
    /// and the real service name them (`ACH_BANK_ACCOUNT`, `CRYPTO_ACCOUNT`).
    func getBuyConfig(_ request: HTTPRequest, _ _: String) throws -> HTTPResponse {
        .json(try JSONValueEncoder().encode(context.catalogue.buyConfig()))
    }

    func getBuyOptions(_ request: HTTPRequest, _ _: String) throws -> HTTPResponse {
        try options(request)
    }

    func createBuyQuote(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        try quote(request, projectId: projectId)
    }

    private func options(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let countryId = request.queryValue("country"), let country = context.catalogue.country(countryId) else {
            throw FieldError(
                code: "invalid_request", message: "country must be a supported ISO 3166-1 code.",
                param: "country")
        }
        let networks = request.queryValue("networks").map { $0.split(separator: ",").map(String.init) }
        return .json(
            try JSONValueEncoder().encode(context.catalogue.buyOptions(country: country.id, networks: networks)))
    }

    private func quote(_ request: HTTPRequest, projectId: String) throws -> HTTPResponse {
        let fields = RequestFields(try request.jsonBody())
        // A field in either spelling (`purchase_currency` or `purchaseCurrency`).
        func field(_ snake: String, _ camel: String, maxLength: Int) throws(FieldError) -> String? {
            if let value = try fields.optional(snake, maxLength: maxLength) { return value }
            return try fields.optional(camel, maxLength: maxLength)
        }
        func required(_ snake: String, _ camel: String, maxLength: Int) throws(FieldError) -> String {
            guard let value = try field(snake, camel, maxLength: maxLength), !value.isEmpty else {
                throw FieldError(
                    status: 400, code: "invalid_request", message: "Missing required field \(snake).", param: snake)
            }
            return value
        }
        let purchaseCurrency = try required("purchase_currency", "purchaseCurrency", maxLength: 64)
        let network = try field("purchase_network", "purchaseNetwork", maxLength: 64) ?? "ethereum"
        let paymentAmount = try required("payment_amount", "paymentAmount", maxLength: 40)
        let paymentCurrency = try required("payment_currency", "paymentCurrency", maxLength: 8)
        let methodText = try required("payment_method", "paymentMethod", maxLength: 32)
        let subdivision = try field("subdivision", "subdivision", maxLength: 6)
        let destinationAddress = try field("destination_address", "destinationAddress", maxLength: 128)
        let countryId = try required("country", "country", maxLength: 2)
        guard context.catalogue.country(countryId) != nil else {
            throw fields.invalid("country", "country must be a supported ISO 3166-1 code.")
        }
        let method: PaymentMethodType
        switch methodText.uppercased() {
        case "UNSPECIFIED", "CARD", "GUEST_CHECKOUT_CARD": method = .card
        case "ACH_BANK_ACCOUNT", "ACH": method = .ach
        case "APPLE_PAY", "GUEST_CHECKOUT_APPLE_PAY": method = .applePay
        case "FIAT_WALLET": method = .fiatWallet
        case "CRYPTO_ACCOUNT", "CRYPTO_WALLET": method = .cryptoWallet
        case "PAYPAL": method = .paypal
        default: throw fields.invalid("payment_method", "Unknown payment_method \(methodText).")
        }
        if let address = destinationAddress {
            do {
                try AddressValidator.validate(address, format: try context.catalogue.network(network).addressFormat)
            } catch {
                throw fields.invalid("destination_address", "destination_address is not valid for \(network).")
            }
        }
        let quote = try QuoteCalculator(catalogue: context.catalogue).app2AppQuote(
            App2AppQuoteRequest(
                purchaseCurrency: purchaseCurrency, network: network, paymentCurrency: paymentCurrency,
                paymentMethod: method,
                amount: .payment(try DecimalAmount(parsing: paymentAmount, parameter: "payment_amount"))))
        let stored = StoredQuote(quote)
        func amount(_ value: String, _ currency: String) -> JSONValue {
            ["value": .string(value), "currency": .string(currency)]
        }
        var members: [(String, JSONValue)] = [
            ("payment_total", amount(stored.paymentTotal, stored.paymentCurrency)),
            ("payment_subtotal", amount(stored.paymentSubtotal, stored.paymentCurrency)),
            ("purchase_amount", amount(stored.purchaseAmount, stored.purchaseCurrency)),
            ("coinbase_fee", amount(stored.coinbaseFee, stored.paymentCurrency)),
            ("network_fee", amount(stored.networkFee, stored.paymentCurrency)),
            ("quote_id", .string(context.ids.uuid())),
        ]
        if let destinationAddress {
            // A one-click purchase of exactly this quote on the hosted onramp (single use, 5 minutes).
            var session = HostedSessionRequest(
                purchaseCurrency: purchaseCurrency, destinationNetwork: network, destinationAddress: destinationAddress)
            session.paymentAmount = paymentAmount
            session.paymentCurrency = paymentCurrency
            session.paymentMethod = method.rawValue
            session.country = countryId
            session.subdivision = subdivision
            let made = try hosted.createSession(session, projectId: projectId)
            members.append(("onramp_url", .string(made.session.onrampUrl)))
        }
        return .json(.object(members))
    }
}

import HTTPServer
import OnrampCore

/// The quote of an App2App purchase as stored with its session and copied into its transaction:
/// decimal strings only.
struct StoredQuote: Sendable, Equatable {
    var paymentTotal: String
    var paymentSubtotal: String
    var paymentCurrency: String
    var purchaseAmount: String
    var purchaseCurrency: String
    var network: String
    var contractAddress: String
    var coinbaseFee: String
    var networkFee: String
    var exchangeRate: String
    var paymentMethod: String

    init(_ quote: App2AppQuote) {
        paymentTotal = quote.paymentTotalString
        paymentSubtotal = quote.paymentSubtotalString
        paymentCurrency = quote.paymentTotal.currency
        purchaseAmount = quote.purchaseAmount.amount.description
        purchaseCurrency = quote.asset.symbol
        network = quote.network.id
        contractAddress = quote.contractAddress
        coinbaseFee = quote.coinbaseFeeString
        networkFee = quote.networkFeeString
        exchangeRate = quote.exchangeRate.amount.description
        paymentMethod = quote.paymentMethod.rawValue
    }

    /// A quote from its stored fields.
    init(
        paymentTotal: String, paymentSubtotal: String, paymentCurrency: String, purchaseAmount: String,
        purchaseCurrency: String, network: String, contractAddress: String, coinbaseFee: String, networkFee: String,
        exchangeRate: String, paymentMethod: String
    ) {
        self.paymentTotal = paymentTotal
        self.paymentSubtotal = paymentSubtotal
        self.paymentCurrency = paymentCurrency
        self.purchaseAmount = purchaseAmount
        self.purchaseCurrency = purchaseCurrency
        self.network = network
        self.contractAddress = contractAddress
        self.coinbaseFee = coinbaseFee
        self.networkFee = networkFee
        self.exchangeRate = exchangeRate
        self.paymentMethod = paymentMethod
    }

    /// The stored JSON.
    var json: JSONValue {
        [
            "paymentTotal": .string(paymentTotal), "paymentSubtotal": .string(paymentSubtotal),
            "paymentCurrency": .string(paymentCurrency), "purchaseAmount": .string(purchaseAmount),
            "purchaseCurrency": .string(purchaseCurrency), "network": .string(network),
            "contractAddress": .string(contractAddress), "coinbaseFee": .string(coinbaseFee),
            "networkFee": .string(networkFee), "exchangeRate": .string(exchangeRate),
            "paymentMethod": .string(paymentMethod),
        ]
    }

    init(stored text: String) throws {
        let value = try JSONParser().parse(text)
        func field(_ name: String) throws -> String {
            guard let text = value[name]?.stringValue else { throw HTTPError.internalError }
            return text
        }
        paymentTotal = try field("paymentTotal")
        paymentSubtotal = try field("paymentSubtotal")
        paymentCurrency = try field("paymentCurrency")
        purchaseAmount = try field("purchaseAmount")
        purchaseCurrency = try field("purchaseCurrency")
        network = try field("network")
        contractAddress = try field("contractAddress")
        coinbaseFee = try field("coinbaseFee")
        networkFee = try field("networkFee")
        exchangeRate = try field("exchangeRate")
        paymentMethod = try field("paymentMethod")
    }

    /// The quote as the session response shows it.
    var responseJSON: JSONValue {
        [
            "paymentTotal": ["value": .string(paymentTotal), "currency": .string(paymentCurrency)],
            "paymentSubtotal": ["value": .string(paymentSubtotal), "currency": .string(paymentCurrency)],
            "purchaseAmount": ["value": .string(purchaseAmount), "currency": .string(purchaseCurrency)],
            "coinbaseFee": ["value": .string(coinbaseFee), "currency": .string(paymentCurrency)],
            "networkFee": ["value": .string(networkFee), "currency": .string(paymentCurrency)],
            "exchangeRate": ["value": .string(exchangeRate), "currency": .string(paymentCurrency)],
        ]
    }
}

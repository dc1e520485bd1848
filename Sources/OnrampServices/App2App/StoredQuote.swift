import OnrampCore
import OnrampStore
import OnrampWire

/// The quote of an App2App purchase as stored with its session and copied into its transaction:
/// decimal strings only.
package struct StoredQuote: Sendable, Equatable {
    package var paymentTotal: String
    package var paymentSubtotal: String
    package var paymentCurrency: String
    package var purchaseAmount: String
    package var purchaseCurrency: String
    package var network: String
    package var contractAddress: String
    package var coinbaseFee: String
    package var networkFee: String
    package var exchangeRate: String
    package var paymentMethod: String

    package init(_ quote: App2AppQuote) {
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
    package init(
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
    package var json: JSONValue {
        [
            "paymentTotal": .string(paymentTotal), "paymentSubtotal": .string(paymentSubtotal),
            "paymentCurrency": .string(paymentCurrency), "purchaseAmount": .string(purchaseAmount),
            "purchaseCurrency": .string(purchaseCurrency), "network": .string(network),
            "contractAddress": .string(contractAddress), "coinbaseFee": .string(coinbaseFee),
            "networkFee": .string(networkFee), "exchangeRate": .string(exchangeRate),
            "paymentMethod": .string(paymentMethod),
        ]
    }

    package init(stored text: String) throws {
        let value = try JSONParser().parse(text)
        func field(_ name: String) throws -> String {
            guard let text = value[name]?.stringValue else {
                throw StoreError(.typeMismatch, "A stored quote lacks \(name).")
            }
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

    /// The crypto value of one unit of fiat (the CDP API's `exchangeRate`: the inverse of the price),
    /// to the asset's decimals.
    package func cryptoPerFiat(catalogue: Catalogue) -> String {
        guard let price = try? DecimalAmount(parsing: exchangeRate), price.isPositive else { return "0" }
        let decimals = (try? catalogue.asset(purchaseCurrency).decimals) ?? 8
        return DecimalAmount(exactly: 1).divided(by: price, toPlaces: decimals, mode: .bankers).string(places: decimals)
    }

    /// The fees as the CDP API lists them (`OnrampOrderFee`: `{type, amount, currency}`).
    package var fees: [OnrampQuote.Fee] {
        [
            OnrampQuote.Fee(type: .exchange, amount: coinbaseFee, currency: paymentCurrency),
            OnrampQuote.Fee(type: .network, amount: networkFee, currency: paymentCurrency),
        ]
    }

    /// The quote as cdp-sdk's `OnrampQuote` (the sessions' `quote`): amounts as strings, the fees listed.
    package func onrampQuote(catalogue: Catalogue) -> OnrampQuote {
        OnrampQuote(
            paymentTotal: paymentTotal, paymentSubtotal: paymentSubtotal, paymentCurrency: paymentCurrency,
            purchaseAmount: purchaseAmount, purchaseCurrency: purchaseCurrency, destinationNetwork: network, fees: fees,
            exchangeRate: cryptoPerFiat(catalogue: catalogue))
    }
}

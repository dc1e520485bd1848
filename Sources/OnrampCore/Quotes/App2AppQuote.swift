/// Which side of an App2App purchase the user fixed.
public enum App2AppAmount: Sendable, Hashable {
    /// Fiat the user pays, fee-inclusive: fees come out of the crypto side.
    case payment(DecimalAmount)
    /// Crypto the user receives, fee-exclusive: fees are added on the fiat side.
    case purchase(DecimalAmount)

    /// Parses the contract's `paymentAmount` / `purchaseAmount` pair, exactly one of which is set.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/amountChoiceInvalid`` or
    ///   ``OnrampError/Code/invalidAmount``.
    public static func parse(paymentAmount: String?, purchaseAmount: String?) throws -> App2AppAmount {
        switch (paymentAmount, purchaseAmount) {
        case (.some(let payment), .none):
            return .payment(try DecimalAmount(parsing: payment, parameter: "paymentAmount"))
        case (.none, .some(let purchase)):
            return .purchase(try DecimalAmount(parsing: purchase, parameter: "purchaseAmount"))
        case (.some, .some), (.none, .none):
            throw OnrampError(
                code: .amountChoiceInvalid, userMessage: "Enter an amount to buy.",
                developerMessage: "Exactly one of paymentAmount or purchaseAmount must be given.",
                parameter: "paymentAmount")
        }
    }
}

/// A request for an App2App (Coinbase-style) quote.
public struct App2AppQuoteRequest: Sendable, Hashable {
    /// The asset: a case-sensitive ticker or an asset id.
    public var purchaseCurrency: String
    /// The destination network name.
    public var network: String
    /// The fiat currency code.
    public var paymentCurrency: String
    /// The payment method.
    public var paymentMethod: PaymentMethodType
    /// The fixed side of the purchase.
    public var amount: App2AppAmount

    /// Creates a quote request.
    public init(
        purchaseCurrency: String, network: String, paymentCurrency: String = "USD",
        paymentMethod: PaymentMethodType = .card, amount: App2AppAmount
    ) {
        self.purchaseCurrency = purchaseCurrency
        self.network = network
        self.paymentCurrency = paymentCurrency
        self.paymentMethod = paymentMethod
        self.amount = amount
    }
}

/// An App2App quote. Invariant: `paymentTotal = paymentSubtotal + coinbaseFee + networkFee`.
public struct App2AppQuote: Sendable, Hashable {
    /// The asset bought.
    public let asset: Asset
    /// The network it is delivered on.
    public let network: Network
    /// The asset's contract on that network (empty for a native asset).
    public let contractAddress: String
    /// The payment method.
    public let paymentMethod: PaymentMethodType
    /// What the user pays in total, in fiat.
    public let paymentTotal: Money
    /// The part of the total that buys crypto.
    public let paymentSubtotal: Money
    /// The crypto the user receives.
    public let purchaseAmount: Money
    /// The processing fee, in fiat.
    public let coinbaseFee: Money
    /// The network fee, in fiat.
    public let networkFee: Money
    /// Fiat per one unit of the asset.
    public let exchangeRate: Money

    /// The fiat total as a wire string with the currency's places (`"25.00"`).
    public var paymentTotalString: String { paymentTotal.amount.string(places: fiatPlaces) }
    /// The fiat subtotal as a wire string.
    public var paymentSubtotalString: String { paymentSubtotal.amount.string(places: fiatPlaces) }
    /// The processing fee as a wire string.
    public var coinbaseFeeString: String { coinbaseFee.amount.string(places: fiatPlaces) }
    /// The network fee as a wire string.
    public var networkFeeString: String { networkFee.amount.string(places: fiatPlaces) }

    let fiatPlaces: Int
}

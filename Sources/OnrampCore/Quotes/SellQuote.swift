/// A sell (offramp) quote: the crypto sold, the fiat it is worth at the catalogue's price, the fee of the
/// cash-out method, and what the user receives. All exact decimals.
public struct SellQuote: Sendable, Hashable {
    /// The crypto sold.
    public let sellAmount: Money
    /// Its value in the cash-out currency, rounded down to the currency's cents.
    public let cashoutSubtotal: Money
    /// The fee, rounded up.
    public let coinbaseFee: Money
    /// What the user receives: subtotal less fee.
    public let cashoutTotal: Money
    /// The price of one unit of the asset in the cash-out currency.
    public let unitPrice: Money
    /// The cash-out currency's decimals (`2` for USD), for writing its amounts.
    public let cashoutDecimals: Int

    /// A cash-out amount as decimal text with the currency's places (`10.00`).
    public func text(_ money: Money) -> String {
        money.amount.string(places: cashoutDecimals)
    }

    /// Prices selling `amount` of `asset` for `currency` through the cash-out `method`.
    ///
    /// - Throws: ``OnrampError`` for an unknown asset or currency, a missing price, or an amount that
    ///   does not cover the fee.
    public init(
        catalogue: Catalogue, asset: String, amount: DecimalAmount, currency: String, method: PaymentMethodType
    ) throws {
        let asset = try catalogue.asset(asset)
        let fiat = try catalogue.fiatCurrency(currency)
        let price = try catalogue.prices.price(of: asset.symbol, in: fiat.code)
        let fee = catalogue.fees.paymentMethodFee(for: method)
        let methodLimits = try catalogue.paymentMethod(method)
        guard let limit = methodLimits.limit(for: fiat.code) else {
            throw OnrampError(
                code: .unsupportedPaymentMethod, userMessage: "This cash-out method does not pay in \(fiat.code).",
                developerMessage: "\(method.rawValue) does not cash out in \(fiat.code).", parameter: "cashoutCurrency")
        }
        guard amount.isPositive, amount.fractionDigits <= asset.decimals else {
            throw OnrampError(
                code: .invalidAmount, userMessage: "The amount is not valid.",
                developerMessage: "sellAmount must be positive with at most \(asset.decimals) decimals.",
                parameter: "sellAmount")
        }
        let subtotal = (amount * price).rounded(toPlaces: fiat.decimals, mode: .down)
        guard !(subtotal < limit.minimum), !(limit.maximum < subtotal) else {
            throw OnrampError(
                code: .invalidAmount, userMessage: "The amount is outside the cash-out limits.",
                developerMessage:
                    "A \(method.rawValue) cash-out is \(limit.minimum) to \(limit.maximum) \(fiat.code); this one is \(subtotal).",
                parameter: "sellAmount")
        }
        let feeAmount = (subtotal * fee.percentage + fee.fixed).rounded(toPlaces: fiat.decimals, mode: .up)
        let total = subtotal - feeAmount
        guard total.isPositive else {
            throw OnrampError(
                code: .invalidAmount, userMessage: "The amount is too small to cash out.",
                developerMessage: "Selling \(amount) \(asset.symbol) does not cover the \(feeAmount) \(fiat.code) fee.",
                parameter: "sellAmount")
        }
        sellAmount = Money(amount: amount, currency: asset.symbol)
        cashoutSubtotal = Money(amount: subtotal, currency: fiat.code)
        coinbaseFee = Money(amount: feeAmount, currency: fiat.code)
        cashoutTotal = Money(amount: total, currency: fiat.code)
        unitPrice = Money(amount: price, currency: fiat.code)
        cashoutDecimals = fiat.decimals
    }
}

import Foundation

/// Prices purchases from a ``Catalogue``: exact decimals, fiat rounded to the currency's places,
/// crypto to the asset's decimals.
///
/// Rounding rules (always in the operator's favour, never more crypto than paid for):
/// processing fees are rounded up to the fiat places; a fiat subtotal computed from crypto is rounded
/// up; crypto computed from fiat is rounded down.
public struct QuoteCalculator: Sendable {
    /// The default lifetime of an Embedded quote, in seconds.
    public static let defaultEmbeddedQuoteLifetime: TimeInterval = 300

    /// The catalogue that supplies prices, fees and limits.
    public let catalogue: Catalogue

    /// Creates a calculator over `catalogue`.
    public init(catalogue: Catalogue = .standard) {
        self.catalogue = catalogue
    }

    /// Quotes an App2App purchase and checks the payment method's limits on the payment total.
    ///
    /// - Throws: ``OnrampError`` for an unknown asset, network, currency or method, an amount with too
    ///   many places, a price gap, an amount that does not cover the fees, or a limit.
    public func app2AppQuote(_ request: App2AppQuoteRequest) throws -> App2AppQuote {
        let (asset, network, deployment) = try catalogue.resolve(
            asset: request.purchaseCurrency, network: request.network)
        let (fiat, method, price, fee, networkFee) = try pricing(
            asset: asset, network: network, currency: request.paymentCurrency, method: request.paymentMethod)

        let total: DecimalAmount
        let subtotal: DecimalAmount
        let processingFee: DecimalAmount
        let purchase: DecimalAmount
        switch request.amount {
        case .payment(let paymentAmount):
            try requirePlaces(paymentAmount, atMost: fiat.decimals, parameter: "paymentAmount")
            total = paymentAmount
            processingFee = processing(fee, on: total, places: fiat.decimals)
            subtotal = total - processingFee - networkFee
            guard subtotal.isPositive else { throw tooSmall(total, currency: fiat.code) }
            purchase = subtotal.divided(by: price, toPlaces: asset.decimals, mode: .down)
            guard purchase.isPositive else { throw tooSmall(total, currency: fiat.code) }
        case .purchase(let purchaseAmount):
            try requirePlaces(purchaseAmount, atMost: asset.decimals, parameter: "purchaseAmount")
            guard purchaseAmount.isPositive else {
                throw invalid("purchaseAmount must be above zero.", parameter: "purchaseAmount")
            }
            purchase = purchaseAmount
            subtotal = (purchase * price).rounded(toPlaces: fiat.decimals, mode: .up)
            processingFee = processing(fee, on: subtotal, places: fiat.decimals)
            total = subtotal + processingFee + networkFee
        }
        try method.checkLimits(Money(amount: total, currency: fiat.code))
        return App2AppQuote(
            asset: asset, network: network, contractAddress: deployment.contractAddress,
            paymentMethod: method.type, paymentTotal: Money(amount: total, currency: fiat.code),
            paymentSubtotal: Money(amount: subtotal, currency: fiat.code),
            purchaseAmount: Money(amount: purchase, currency: asset.symbol),
            coinbaseFee: Money(amount: processingFee, currency: fiat.code),
            networkFee: Money(amount: networkFee, currency: fiat.code),
            exchangeRate: Money(amount: price, currency: fiat.code), fiatPlaces: fiat.decimals)
    }

    /// The fiat currency, payment method, asset price, processing fee and (rounded up) network fee
    /// that both quote kinds start from.
    private func pricing(asset: Asset, network: Network, currency: String, method type: PaymentMethodType) throws
        -> (
            fiat: FiatCurrency, method: PaymentMethod, price: DecimalAmount, fee: FeeSchedule.PaymentMethodFee,
            networkFee: DecimalAmount
        )
    {
        let fiat = try catalogue.fiatCurrency(currency)
        let method = try catalogue.paymentMethod(type)
        let price = try catalogue.prices.price(of: asset.symbol, in: fiat.code)
        let fee = catalogue.fees.paymentMethodFee(for: method.type)
        let networkFee = catalogue.fees.networkFee(for: network.id).rounded(toPlaces: fiat.decimals, mode: .up)
        return (fiat, method, price, fee, networkFee)
    }

    /// Quotes an Embedded purchase that expires `lifetime` seconds after `clock.now()`, and checks
    /// the payment method's limits on the source total.
    ///
    /// - Throws: ``OnrampError`` as ``app2AppQuote(_:)`` does.
    public func embeddedQuote(
        _ request: EmbeddedQuoteRequest, clock: any Clock,
        lifetime: TimeInterval = QuoteCalculator.defaultEmbeddedQuoteLifetime
    ) throws -> EmbeddedQuote {
        let (asset, network, _) = try catalogue.resolve(
            asset: try catalogue.asset(lowercaseCode: request.destinationCurrency).symbol,
            network: request.destinationNetwork)
        let (fiat, method, price, fee, networkFee) = try pricing(
            asset: asset, network: network, currency: request.sourceCurrency, method: request.paymentMethod)

        let source: DecimalAmount
        let destination: DecimalAmount
        switch request.amount {
        case .source(let sourceAmount):
            try requirePlaces(sourceAmount, atMost: fiat.decimals, parameter: "source_amount")
            source = sourceAmount
            destination = source.divided(by: price, toPlaces: asset.decimals, mode: .down)
            guard destination.isPositive else { throw tooSmall(source, currency: fiat.code) }
        case .destination(let destinationAmount):
            try requirePlaces(destinationAmount, atMost: asset.decimals, parameter: "destination_amount")
            guard destinationAmount.isPositive else {
                throw invalid("destination_amount must be above zero.", parameter: "destination_amount")
            }
            destination = destinationAmount
            source = (destination * price).rounded(toPlaces: fiat.decimals, mode: .up)
        }
        let transactionFee = processing(fee, on: source, places: fiat.decimals)
        let total = source + networkFee + transactionFee
        try method.checkLimits(Money(amount: total, currency: fiat.code))
        return EmbeddedQuote(
            asset: asset, network: network, sourceAmount: Money(amount: source, currency: fiat.code),
            sourceTotalAmount: Money(amount: total, currency: fiat.code),
            destinationAmount: Money(amount: destination, currency: asset.symbol),
            networkFeeAmount: Money(amount: networkFee, currency: fiat.code),
            transactionFeeAmount: Money(amount: transactionFee, currency: fiat.code),
            exchangeRate: Money(amount: price, currency: fiat.code),
            expiresAt: clock.now().addingTimeInterval(lifetime))
    }

    private func processing(_ fee: FeeSchedule.PaymentMethodFee, on base: DecimalAmount, places: Int)
        -> DecimalAmount
    {
        (base * fee.percentage).rounded(toPlaces: places, mode: .up)
            + fee.fixed.rounded(toPlaces: places, mode: .up)
    }

    private func requirePlaces(_ amount: DecimalAmount, atMost places: Int, parameter: String) throws {
        guard amount.fractionDigits <= places else {
            throw invalid("\(parameter) has more than \(places) decimal places.", parameter: parameter)
        }
    }

    private func invalid(_ message: String, parameter: String) -> OnrampError {
        OnrampError(
            code: .invalidAmount, userMessage: "The amount is not valid.", developerMessage: message,
            parameter: parameter)
    }

    private func tooSmall(_ amount: DecimalAmount, currency: String) -> OnrampError {
        OnrampError(
            code: .amountTooSmallForFees, userMessage: "The amount is too small to cover the fees.",
            developerMessage: "\(amount) \(currency) does not cover the fees.", parameter: "paymentAmount")
    }
}

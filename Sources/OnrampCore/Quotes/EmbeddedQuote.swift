import Foundation

/// Which side of an Embedded purchase the caller fixed.
public enum EmbeddedAmount: Sendable, Hashable {
    /// Fiat `source_amount`, before fees (fees are added on top).
    case source(DecimalAmount)
    /// Crypto `destination_amount`.
    case destination(DecimalAmount)

    /// Parses the contract's `source_amount` / `destination_amount` pair, exactly one of which is set.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/amountChoiceInvalid`` or
    ///   ``OnrampError/Code/invalidAmount``.
    public static func parse(sourceAmount: String?, destinationAmount: String?) throws -> EmbeddedAmount {
        switch (sourceAmount, destinationAmount) {
        case (.some(let source), .none):
            return .source(try DecimalAmount(parsing: source, parameter: "source_amount"))
        case (.none, .some(let destination)):
            return .destination(try DecimalAmount(parsing: destination, parameter: "destination_amount"))
        case (.some, .some), (.none, .none):
            throw OnrampError(
                code: .amountChoiceInvalid, userMessage: "Enter an amount to buy.",
                developerMessage: "Exactly one of source_amount or destination_amount must be given.",
                parameter: "source_amount")
        }
    }
}

/// A request for an Embedded (Stripe-style) quote.
public struct EmbeddedQuoteRequest: Sendable, Hashable {
    /// The fiat currency, lower case (`usd`).
    public var sourceCurrency: String
    /// The asset, lower case (`usdc`).
    public var destinationCurrency: String
    /// The destination network name.
    public var destinationNetwork: String
    /// The payment method.
    public var paymentMethod: PaymentMethodType
    /// The fixed side of the purchase.
    public var amount: EmbeddedAmount

    /// Creates a quote request.
    public init(
        sourceCurrency: String, destinationCurrency: String, destinationNetwork: String,
        paymentMethod: PaymentMethodType = .card, amount: EmbeddedAmount
    ) {
        self.sourceCurrency = sourceCurrency
        self.destinationCurrency = destinationCurrency
        self.destinationNetwork = destinationNetwork
        self.paymentMethod = paymentMethod
        self.amount = amount
    }
}

/// An Embedded quote. Invariant: `sourceTotalAmount = sourceAmount + networkFee + transactionFee`.
public struct EmbeddedQuote: Sendable, Hashable {
    /// The asset bought.
    public let asset: Asset
    /// The network it is delivered on.
    public let network: Network
    /// The fiat that buys crypto, before fees.
    public let sourceAmount: Money
    /// What the user pays in total.
    public let sourceTotalAmount: Money
    /// The crypto the user receives.
    public let destinationAmount: Money
    /// `fees.network_fee_amount`, in fiat.
    public let networkFeeAmount: Money
    /// `fees.transaction_fee_amount`, in fiat.
    public let transactionFeeAmount: Money
    /// Fiat per one unit of the asset.
    public let exchangeRate: Money
    /// When the quote stops being honoured.
    public let expiresAt: Date

    /// Whether the quote has expired at `now` (expiry is exclusive: valid strictly before `expiresAt`).
    public func isExpired(at now: Date) -> Bool {
        now >= expiresAt
    }
}

/// An amount in a currency or asset, identified by its code (`USD`, `USDC`).
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The exact amount.
    public var amount: DecimalAmount
    /// The currency or asset code, upper case.
    public var currency: String

    /// Creates money from an amount and a currency code.
    public init(amount: DecimalAmount, currency: String) {
        self.amount = amount
        self.currency = currency
    }

    /// The amount followed by the currency, for example `25.5 USD`.
    public var description: String { "\(amount) \(currency)" }

    /// The sum of two amounts in the same currency.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/currencyMismatch``.
    public func adding(_ other: Money) throws -> Money {
        try requireSameCurrency(other)
        return Money(amount: amount + other.amount, currency: currency)
    }

    /// The difference of two amounts in the same currency.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/currencyMismatch``.
    public func subtracting(_ other: Money) throws -> Money {
        try requireSameCurrency(other)
        return Money(amount: amount - other.amount, currency: currency)
    }

    private func requireSameCurrency(_ other: Money) throws {
        guard other.currency == currency else {
            throw OnrampError(
                code: .currencyMismatch, userMessage: "The amounts use different currencies.",
                developerMessage: "Cannot combine \(currency) with \(other.currency).")
        }
    }
}

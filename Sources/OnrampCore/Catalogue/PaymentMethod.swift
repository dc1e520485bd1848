/// A payment method with its per-currency purchase limits.
public struct PaymentMethod: Sendable, Hashable, Codable {
    /// The minimum and maximum payment total for one currency.
    public struct Limit: Sendable, Hashable, Codable {
        /// The fiat currency code.
        public var currency: String
        /// The smallest accepted payment total.
        public var minimum: DecimalAmount
        /// The largest accepted payment total.
        public var maximum: DecimalAmount

        /// Creates a limit.
        public init(currency: String, minimum: DecimalAmount, maximum: DecimalAmount) {
            self.currency = currency
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// The method.
    public var type: PaymentMethodType
    /// The limits per fiat currency; a currency without a limit is not offered for this method.
    public var limits: [Limit]

    /// Creates a payment method.
    public init(type: PaymentMethodType, limits: [Limit]) {
        self.type = type
        self.limits = limits
    }

    /// The limit for `currency`, if the method is offered in it.
    public func limit(for currency: String) -> Limit? {
        limits.first { $0.currency == currency }
    }

    /// Checks that `total` is within the limit for its currency.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unsupportedPaymentMethod``,
    ///   ``OnrampError/Code/amountBelowMinimum`` or ``OnrampError/Code/amountAboveMaximum``.
    public func checkLimits(_ total: Money) throws {
        guard let limit = limit(for: total.currency) else {
            throw OnrampError(
                code: .unsupportedPaymentMethod, userMessage: "This payment method is not available.",
                developerMessage: "\(type.rawValue) is not offered for \(total.currency).",
                parameter: "paymentMethod")
        }
        guard total.amount >= limit.minimum else {
            throw OnrampError(
                code: .amountBelowMinimum,
                userMessage: "The minimum purchase is \(limit.minimum) \(limit.currency).",
                developerMessage: "Payment total \(total) is below the \(type.rawValue) minimum \(limit.minimum).",
                parameter: "paymentAmount")
        }
        guard total.amount <= limit.maximum else {
            throw OnrampError(
                code: .amountAboveMaximum,
                userMessage: "The maximum purchase is \(limit.maximum) \(limit.currency).",
                developerMessage: "Payment total \(total) is above the \(type.rawValue) maximum \(limit.maximum).",
                parameter: "paymentAmount")
        }
    }
}

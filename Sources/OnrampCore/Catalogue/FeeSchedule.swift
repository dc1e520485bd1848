/// The fees charged on a purchase.
///
/// Fees are amounts in the payment currency. The processing fee of a payment method is
/// `percentage × base + fixed`; the network fee is a flat amount per network, in units of whichever
/// fiat currency the purchase is paid in.
public struct FeeSchedule: Sendable, Hashable, Codable {
    /// The processing fee of one payment method.
    public struct PaymentMethodFee: Sendable, Hashable, Codable {
        /// The payment method.
        public var method: PaymentMethodType
        /// The proportional part, as a fraction (`0.0149` is 1.49 %).
        public var percentage: DecimalAmount
        /// The fixed part, in the payment currency.
        public var fixed: DecimalAmount

        /// Creates a payment method fee.
        public init(method: PaymentMethodType, percentage: DecimalAmount, fixed: DecimalAmount) {
            self.method = method
            self.percentage = percentage
            self.fixed = fixed
        }
    }

    /// The network fee of one network.
    public struct NetworkFee: Sendable, Hashable, Codable {
        /// The network id.
        public var network: String
        /// The fee, in the payment currency.
        public var amount: DecimalAmount

        /// Creates a network fee.
        public init(network: String, amount: DecimalAmount) {
            self.network = network
            self.amount = amount
        }
    }

    /// Processing fees per payment method.
    public var paymentMethodFees: [PaymentMethodFee]
    /// Network fees per network.
    public var networkFees: [NetworkFee]

    /// Creates a fee schedule.
    public init(paymentMethodFees: [PaymentMethodFee], networkFees: [NetworkFee]) {
        self.paymentMethodFees = paymentMethodFees
        self.networkFees = networkFees
    }

    /// The processing fee for `method`; zero when the schedule has none.
    public func paymentMethodFee(for method: PaymentMethodType) -> PaymentMethodFee {
        paymentMethodFees.first { $0.method == method }
            ?? PaymentMethodFee(method: method, percentage: .zero, fixed: .zero)
    }

    /// The network fee for the network with id `network`; zero when the schedule has none.
    public func networkFee(for network: String) -> DecimalAmount {
        networkFees.first { $0.network == network }?.amount ?? .zero
    }
}

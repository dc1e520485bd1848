/// cdp-sdk's `OnrampQuote`, as App2App and hosted onramp sessions carry it: every amount a decimal
/// string, the fees listed (`OnrampOrderFee`), the exchange rate as the crypto value of one unit of fiat.
public struct OnrampQuote: WireObject, Codable, Equatable {
    /// One fee of the quote.
    public struct Fee: WireObject, Codable, Equatable {
        /// The fee's kind.
        public enum Kind: String, Codable, Sendable, CaseIterable {
            /// The onramp's own fee.
            case exchange = "FEE_TYPE_EXCHANGE"
            /// The network's fee for the transfer.
            case network = "FEE_TYPE_NETWORK"
        }

        /// The fee's kind.
        public var type: Kind
        /// The amount, a decimal string in ``currency``.
        public var amount: String
        /// The fiat currency of the fee.
        public var currency: String

        /// Creates a fee.
        public init(type: Kind, amount: String, currency: String) {
            self.type = type
            self.amount = amount
            self.currency = currency
        }

        /// What a fee always holds.
        public static let schema = APISchema.object(
            ["type": .enumeration(Kind.allCases.map(\.rawValue)), "amount": .decimalString, "currency": .string],
            required: ["type", "amount", "currency"])
    }

    /// What the user pays, fees included.
    public var paymentTotal: String
    /// What buys crypto: the total less the fees.
    public var paymentSubtotal: String
    /// The fiat currency.
    public var paymentCurrency: String
    /// The crypto the user receives.
    public var purchaseAmount: String
    /// The asset bought.
    public var purchaseCurrency: String
    /// The network the asset is sent on.
    public var destinationNetwork: String
    /// The fees, listed.
    public var fees: [Fee]
    /// The crypto value of one unit of fiat.
    public var exchangeRate: String

    /// Creates a quote object.
    public init(
        paymentTotal: String, paymentSubtotal: String, paymentCurrency: String, purchaseAmount: String,
        purchaseCurrency: String, destinationNetwork: String, fees: [Fee], exchangeRate: String
    ) {
        self.paymentTotal = paymentTotal
        self.paymentSubtotal = paymentSubtotal
        self.paymentCurrency = paymentCurrency
        self.purchaseAmount = purchaseAmount
        self.purchaseCurrency = purchaseCurrency
        self.destinationNetwork = destinationNetwork
        self.fees = fees
        self.exchangeRate = exchangeRate
    }

    public static let schema = APISchema.object(
        [
            "paymentTotal": .string, "paymentSubtotal": .string, "paymentCurrency": .string,
            "purchaseAmount": .string, "purchaseCurrency": .string, "destinationNetwork": .string,
            "fees": .array(Fee.schema), "exchangeRate": APISchema.string.described("Crypto per unit of fiat."),
        ],
        required: [
            "paymentTotal", "paymentSubtotal", "paymentCurrency", "purchaseAmount", "purchaseCurrency",
            "destinationNetwork", "fees", "exchangeRate",
        ])
}

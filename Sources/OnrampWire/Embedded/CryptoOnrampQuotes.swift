/// The `crypto.onramp_quotes` object (`GET /v1/crypto/onramp/quotes`): a quote for each destination currency on
/// each destination network, the networks in the order asked (a network without a quote maps to `[]`).
public struct CryptoOnrampQuotes: WireObject, Codable, Equatable {
    /// One quote: a destination currency on a network.
    public struct Quote: Codable, Equatable, Sendable {
        /// The quote's fees, in the source currency.
        public struct Fees: Codable, Equatable, Sendable {
            /// The network's fee.
            public var networkFeeMonetary: String
            /// The onramp's fee.
            public var transactionFeeMonetary: String

            enum CodingKeys: String, CodingKey {
                case networkFeeMonetary = "network_fee_monetary", transactionFeeMonetary = "transaction_fee_monetary"
            }

            /// A quote's fees.
            public init(networkFeeMonetary: String, transactionFeeMonetary: String) {
                self.networkFeeMonetary = networkFeeMonetary
                self.transactionFeeMonetary = transactionFeeMonetary
            }
        }

        /// `cq_…`.
        public var id: String
        /// The crypto bought (`usdc`).
        public var destinationCurrency: String
        /// The network it is delivered on.
        public var destinationNetwork: String
        /// The crypto received.
        public var destinationAmount: String
        /// What the user pays, fees included.
        public var sourceTotalAmount: String
        /// The fees.
        public var fees: Fees
        /// When the quote stops being honoured, Unix seconds.
        public var expiresAt: Int64

        enum CodingKeys: String, CodingKey {
            case id, destinationCurrency = "destination_currency", destinationNetwork = "destination_network"
            case destinationAmount = "destination_amount", sourceTotalAmount = "source_total_amount", fees
            case expiresAt = "expires_at"
        }

        /// A quote.
        public init(
            id: String, destinationCurrency: String, destinationNetwork: String, destinationAmount: String,
            sourceTotalAmount: String, fees: Fees, expiresAt: Int64
        ) {
            self.id = id
            self.destinationCurrency = destinationCurrency
            self.destinationNetwork = destinationNetwork
            self.destinationAmount = destinationAmount
            self.sourceTotalAmount = sourceTotalAmount
            self.fees = fees
            self.expiresAt = expiresAt
        }

        /// What a quote always holds.
        public static let schema = APISchema.object(
            [
                "id": .string, "destination_currency": .string, "destination_network": .string,
                "destination_amount": .decimalString, "source_total_amount": .decimalString,
                "fees": .object(
                    ["network_fee_monetary": .decimalString, "transaction_fee_monetary": .decimalString],
                    required: ["network_fee_monetary", "transaction_fee_monetary"]),
                "expires_at": .integer,
            ],
            required: [
                "id", "destination_currency", "destination_network", "destination_amount", "source_total_amount",
                "fees", "expires_at",
            ])
    }

    /// `cqs_…`.
    public var id: String
    /// Always `crypto.onramp_quotes`.
    public var object: String
    /// Whether the quotes were made in live mode.
    public var livemode: Bool
    /// When the rates were read, Unix seconds.
    public var rateFetchedAt: Int64
    /// The fiat currency (`usd`).
    public var sourceCurrency: String
    /// The fiat amount asked for; `null` when a destination amount was.
    public var sourceAmount: String?
    /// The quotes of each network, in the order asked.
    public var destinationNetworkQuotes: OrderedMap<[Quote]>

    enum CodingKeys: String, CodingKey {
        case id, object, livemode, rateFetchedAt = "rate_fetched_at", sourceCurrency = "source_currency"
        case sourceAmount = "source_amount", destinationNetworkQuotes = "destination_network_quotes"
    }

    /// The quotes of one request.
    public init(
        id: String, livemode: Bool, rateFetchedAt: Int64, sourceCurrency: String, sourceAmount: String?,
        destinationNetworkQuotes: OrderedMap<[Quote]>
    ) {
        self.id = id
        object = "crypto.onramp_quotes"
        self.livemode = livemode
        self.rateFetchedAt = rateFetchedAt
        self.sourceCurrency = sourceCurrency
        self.sourceAmount = sourceAmount
        self.destinationNetworkQuotes = destinationNetworkQuotes
    }

    /// `source_amount` is `null` when absent.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What the quotes always hold.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.onramp_quotes"), "livemode": .boolean,
            "rate_fetched_at": .integer, "source_currency": .string, "source_amount": APISchema.decimalString.nullable,
            "destination_network_quotes": .map(.array(Quote.schema)),
        ],
        required: [
            "id", "object", "livemode", "rate_fetched_at", "source_currency", "source_amount",
            "destination_network_quotes",
        ])
}

/// The `crypto.onramp_transaction_limits` object: the most one purchase may be at each KYC tier.
public struct CryptoOnrampTransactionLimits: WireObject, Codable, Equatable {
    /// The limit of each tier, decimal text in ``CryptoOnrampTransactionLimits/currency``.
    public struct PerTransaction: Codable, Equatable, Sendable {
        /// Tier L0.
        public var l0: String
        /// Tier L1.
        public var l1: String
        /// Tier L2.
        public var l2: String

        /// The tiers' limits.
        public init(l0: String, l1: String, l2: String) {
            self.l0 = l0
            self.l1 = l1
            self.l2 = l2
        }
    }

    /// Always `crypto.onramp_transaction_limits`.
    public var object: String
    /// Whether these are live mode's limits.
    public var livemode: Bool
    /// The limits' currency (`usd`).
    public var currency: String
    /// The limit of each tier.
    public var perTransaction: PerTransaction

    enum CodingKeys: String, CodingKey {
        case object, livemode, currency, perTransaction = "per_transaction"
    }

    /// The limits of one mode.
    public init(livemode: Bool, currency: String, perTransaction: PerTransaction) {
        object = "crypto.onramp_transaction_limits"
        self.livemode = livemode
        self.currency = currency
        self.perTransaction = perTransaction
    }

    /// What the limits always hold.
    public static let schema = APISchema.object(
        [
            "object": .constant("crypto.onramp_transaction_limits"), "livemode": .boolean, "currency": .string,
            "per_transaction": .object(
                ["l0": .decimalString, "l1": .decimalString, "l2": .decimalString], required: ["l0", "l1", "l2"]),
        ], required: ["object", "livemode", "currency", "per_transaction"])
}

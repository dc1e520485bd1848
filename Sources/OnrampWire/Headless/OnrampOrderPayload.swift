/// An `onramp.transaction.*` webhook's payload for a Headless order (cdp-sdk `OnrampOrderPayload`, its fees as
/// `OrderFee`), with the event's type first, plus the `paymentAmount` Coinbase's demo backend reads
/// (`server/src/app.ts`, `/webhooks/onramp`). The server writes it; a partner's backend reads it through
/// `CDPTransactionEvent`.
public struct OnrampOrderPayload: WireObject, Codable, Equatable {
    /// One fee (`OrderFee`).
    public struct Fee: WireObject, Codable, Equatable {
        /// `FEE_TYPE_EXCHANGE` or `FEE_TYPE_NETWORK`.
        public var feeType: String
        /// The amount, as decimal text.
        public var feeAmount: String
        /// Its currency.
        public var feeCurrency: String

        /// Creates a fee.
        public init(feeType: String, feeAmount: String, feeCurrency: String) {
            self.feeType = feeType
            self.feeAmount = feeAmount
            self.feeCurrency = feeCurrency
        }

        public static let schema = APISchema.object(
            ["feeType": .string, "feeAmount": .decimalString, "feeCurrency": .string],
            required: ["feeType", "feeAmount", "feeCurrency"])
    }

    /// `onramp.transaction.created | updated | success | failed`.
    public var eventType: String
    /// The order id.
    public var orderId: String
    /// `ONRAMP_ORDER_STATUS_…`.
    public var status: String
    /// The fiat paid, fees included.
    public var paymentTotal: String
    /// The same as ``paymentTotal``, for the demo backend.
    public var paymentAmount: String
    /// The fiat converted to crypto.
    public var paymentSubtotal: String
    /// The fiat currency.
    public var paymentCurrency: String
    /// The wallet's payment method.
    public var paymentMethod: String
    /// The crypto bought.
    public var purchaseAmount: String
    /// The asset.
    public var purchaseCurrency: String
    /// The exchange and network fees.
    public var fees: [Fee]
    /// The crypto value of one unit of fiat.
    public var exchangeRate: String
    /// The wallet the crypto goes to.
    public var destinationAddress: String
    /// The network.
    public var destinationNetwork: String
    /// The on-chain hash once sent (empty before).
    public var txHash: String
    /// When the order was created (RFC 3339).
    public var createdAt: String
    /// When it last changed (RFC 3339).
    public var updatedAt: String
    /// The partner's reference for the user.
    public var partnerUserRef: String
    /// Why it failed, when it did.
    public var failureReason: String?
    /// The end partner an aggregator placed the order for.
    public var partnerId: String?

    /// The payload of `eventType` about `order`, with its `fees` in `OrderFee` form.
    public init(eventType: String, order: OnrampOrder, failureReason: String?) {
        self.eventType = eventType
        orderId = order.orderId
        status = order.status
        paymentTotal = order.paymentTotal
        paymentAmount = order.paymentTotal
        paymentSubtotal = order.paymentSubtotal
        paymentCurrency = order.paymentCurrency
        paymentMethod = order.paymentMethod
        purchaseAmount = order.purchaseAmount
        purchaseCurrency = order.purchaseCurrency
        fees = order.fees.map {
            Fee(feeType: $0.type.rawValue, feeAmount: $0.amount, feeCurrency: $0.currency)
        }
        exchangeRate = order.exchangeRate
        destinationAddress = order.destinationAddress
        destinationNetwork = order.destinationNetwork
        txHash = order.txHash ?? ""
        createdAt = order.createdAt
        updatedAt = order.updatedAt
        partnerUserRef = order.partnerUserRef ?? ""
        self.failureReason = failureReason
        partnerId = order.partnerId
    }

    public static let schema = APISchema.object(
        [
            "eventType": .string, "orderId": .string, "status": .string, "paymentTotal": .decimalString,
            "paymentAmount": .decimalString, "paymentSubtotal": .decimalString, "paymentCurrency": .string,
            "paymentMethod": .string, "purchaseAmount": .decimalString, "purchaseCurrency": .string,
            "fees": .array(Fee.schema), "exchangeRate": .decimalString, "destinationAddress": .string,
            "destinationNetwork": .string, "txHash": .string, "createdAt": .dateTime, "updatedAt": .dateTime,
            "partnerUserRef": .string, "failureReason": .string, "partnerId": .string,
        ],
        required: [
            "eventType", "orderId", "status", "paymentTotal", "paymentAmount", "paymentSubtotal", "paymentCurrency",
            "paymentMethod", "purchaseAmount", "purchaseCurrency", "fees", "exchangeRate", "destinationAddress",
            "destinationNetwork", "txHash", "createdAt", "updatedAt", "partnerUserRef",
        ])
}

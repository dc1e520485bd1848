/// One transaction of the transactions API (`GET /onramp/v1/buy/user/{partnerUserRef}/transactions`
/// and `GET /onramp/v1/buy/transactions`), in its snake_case form (cdp-sdk's `OnrampTransaction`).
///
/// This server writes every member; a reader requires only ``transactionId`` and ``status``, so the
/// type reads other servers' answers (Coinbase's own) that leave members out.
public struct OnrampTransaction: WireObject, Codable, Equatable {
    /// An amount with its currency, as decimal text.
    public struct Amount: WireObject, Codable, Equatable {
        /// The decimal amount.
        public var value: String
        /// The currency code.
        public var currency: String

        /// Creates an amount.
        public init(value: String, currency: String) {
            self.value = value
            self.currency = currency
        }

        /// What an amount always holds.
        public static let schema = APISchema.object(
            ["value": .string, "currency": .string], required: ["value", "currency"])
    }

    /// The statuses, in the order a transaction moves through them (the last two are final).
    public static let statuses = [
        "ONRAMP_TRANSACTION_STATUS_CREATED", "ONRAMP_TRANSACTION_STATUS_IN_PROGRESS",
        "ONRAMP_TRANSACTION_STATUS_SUCCESS", "ONRAMP_TRANSACTION_STATUS_FAILED",
    ]

    /// This API's transaction id (not the redirect's).
    public var transactionId: String
    /// One of ``statuses``.
    public var status: String
    /// `ONRAMP_TRANSACTION_TYPE_BUY_AND_SEND`.
    public var type: String?
    /// `USER_TYPE_AUTHED`.
    public var userType: String?
    /// The buyer's id at the onramp.
    public var userId: String?
    /// The purchased asset.
    public var purchaseCurrency: String?
    /// The network.
    public var purchaseNetwork: String?
    /// The crypto received.
    public var purchaseAmount: Amount?
    /// The fiat paid, fee-inclusive.
    public var paymentTotal: Amount?
    /// The fiat that bought crypto: the total less the fees.
    public var paymentSubtotal: Amount?
    /// The total in US dollars.
    public var paymentTotalUsd: Amount?
    /// The onramp's fee.
    public var coinbaseFee: Amount?
    /// The network's fee.
    public var networkFee: Amount?
    /// The fiat price of one unit of the asset.
    public var exchangeRate: Amount?
    /// The on-chain hash once sent (empty before).
    public var txHash: String?
    /// The destination wallet.
    public var walletAddress: String?
    /// The asset's contract on the network.
    public var contractAddress: String?
    /// The buyer's country.
    public var country: String?
    /// The partner's user reference.
    public var partnerUserRef: String?
    /// How the buyer paid.
    public var paymentMethod: String?
    /// When the transaction was created (RFC 3339).
    public var createdAt: String?
    /// When it reached a final status (RFC 3339).
    public var completedAt: String?
    /// The partner's name as the buyer saw it.
    public var endPartnerName: String?
    /// Why it failed (`FAILURE_REASON_…`), when it did.
    public var failureReason: String?

    /// Whether the crypto was delivered.
    public var isSettled: Bool { status == "ONRAMP_TRANSACTION_STATUS_SUCCESS" }

    enum CodingKeys: String, CodingKey {
        case transactionId = "transaction_id", status, type, userType = "user_type", userId = "user_id"
        case purchaseCurrency = "purchase_currency", purchaseNetwork = "purchase_network"
        case purchaseAmount = "purchase_amount", paymentTotal = "payment_total", paymentSubtotal = "payment_subtotal"
        case paymentTotalUsd = "payment_total_usd", coinbaseFee = "coinbase_fee", networkFee = "network_fee"
        case exchangeRate = "exchange_rate", txHash = "tx_hash", walletAddress = "wallet_address"
        case contractAddress = "contract_address", country, partnerUserRef = "partner_user_ref"
        case paymentMethod = "payment_method", createdAt = "created_at", completedAt = "completed_at"
        case endPartnerName = "end_partner_name", failureReason = "failure_reason"
    }

    /// Creates a transaction object with every member this server writes.
    public init(
        transactionId: String, status: String, userId: String, purchaseCurrency: String, purchaseNetwork: String,
        purchaseAmount: Amount, paymentTotal: Amount, paymentSubtotal: Amount, paymentTotalUsd: Amount,
        coinbaseFee: Amount, networkFee: Amount, exchangeRate: Amount, txHash: String, walletAddress: String,
        contractAddress: String, country: String, partnerUserRef: String, paymentMethod: String, createdAt: String,
        completedAt: String?, endPartnerName: String, failureReason: String?
    ) {
        self.transactionId = transactionId
        self.status = status
        type = "ONRAMP_TRANSACTION_TYPE_BUY_AND_SEND"
        userType = "USER_TYPE_AUTHED"
        self.userId = userId
        self.purchaseCurrency = purchaseCurrency
        self.purchaseNetwork = purchaseNetwork
        self.purchaseAmount = purchaseAmount
        self.paymentTotal = paymentTotal
        self.paymentSubtotal = paymentSubtotal
        self.paymentTotalUsd = paymentTotalUsd
        self.coinbaseFee = coinbaseFee
        self.networkFee = networkFee
        self.exchangeRate = exchangeRate
        self.txHash = txHash
        self.walletAddress = walletAddress
        self.contractAddress = contractAddress
        self.country = country
        self.partnerUserRef = partnerUserRef
        self.paymentMethod = paymentMethod
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.endPartnerName = endPartnerName
        self.failureReason = failureReason
    }

    /// Every member is written, absent ones as `null`, as the transactions API shows them.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What this server's answers always hold: every member, `completed_at` and `failure_reason` `null`
    /// until they apply.
    public static let schema = APISchema.object(
        [
            "transaction_id": .string, "status": .enumeration(statuses),
            "type": .constant("ONRAMP_TRANSACTION_TYPE_BUY_AND_SEND"), "user_type": .constant("USER_TYPE_AUTHED"),
            "user_id": .string, "purchase_currency": .string, "purchase_network": .string,
            "purchase_amount": Amount.schema, "payment_total": Amount.schema, "payment_subtotal": Amount.schema,
            "payment_total_usd": Amount.schema, "coinbase_fee": Amount.schema, "network_fee": Amount.schema,
            "exchange_rate": Amount.schema, "tx_hash": APISchema.string.described("Empty until the crypto is sent."),
            "wallet_address": .string, "contract_address": .string, "country": .string, "partner_user_ref": .string,
            "payment_method": .string, "created_at": .dateTime, "completed_at": APISchema.dateTime.nullable,
            "end_partner_name": .string, "failure_reason": APISchema.string.nullable,
        ],
        required: CodingKeys.allMembers)
}

extension OnrampTransaction.CodingKeys: CaseIterable {
    /// Every member's name, in the order the wire lists them.
    static var allMembers: [String] { allCases.map(\.rawValue) }
}

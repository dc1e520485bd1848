/// An `onramp.transaction.*` webhook's payload for a transaction (cdp-sdk 1.51.0 `OnrampTransactionPayload`):
/// the transaction in camelCase, flat, with the event's type first. The server writes it; a partner's backend
/// reads it through `CDPTransactionEvent`, which also takes the order form (``OnrampOrderPayload``) and what
/// the real service varies.
public struct OnrampTransactionPayload: WireObject, Codable, Equatable {
    /// `onramp.transaction.created | updated | success | failed`.
    public var eventType: String
    /// The transaction id.
    public var transactionId: String
    /// `ONRAMP_TRANSACTION_STATUS_…`.
    public var status: String
    /// `ONRAMP_TRANSACTION_TYPE_BUY_AND_SEND`.
    public var type: String?
    /// `USER_TYPE_AUTHED`.
    public var userType: String?
    /// The user the purchase was made for.
    public var userId: String?
    /// The partner's reference for the user.
    public var partnerUserRef: String?
    /// `true` for App2App purchases.
    public var isAppToApp: Bool
    /// The purchased asset.
    public var purchaseCurrency: String?
    /// The network of the purchase.
    public var purchaseNetwork: String?
    /// The crypto bought.
    public var purchaseAmount: OnrampTransaction.Amount?
    /// The fiat paid, fees included.
    public var paymentTotal: OnrampTransaction.Amount?
    /// The fiat converted to crypto.
    public var paymentSubtotal: OnrampTransaction.Amount?
    /// The total in US dollars.
    public var paymentTotalUsd: OnrampTransaction.Amount?
    /// The onramp's fee.
    public var coinbaseFee: OnrampTransaction.Amount?
    /// The network's fee.
    public var networkFee: OnrampTransaction.Amount?
    /// The fiat price of one unit of the asset.
    public var exchangeRate: OnrampTransaction.Amount?
    /// The on-chain hash once sent (empty before).
    public var txHash: String?
    /// The destination wallet.
    public var walletAddress: String?
    /// The asset's contract on its network.
    public var contractAddress: String?
    /// The buyer's country.
    public var country: String?
    /// The payment method.
    public var paymentMethod: String?
    /// When the transaction was created (RFC 3339).
    public var createdAt: String?
    /// When it completed (RFC 3339); `null` until then.
    public var completedAt: String?
    /// The end partner's name.
    public var endPartnerName: String?
    /// Why it failed; `null` unless it did.
    public var failureReason: String?
    /// `ERROR_CODE_UNSPECIFIED`, the one value Coinbase documents (its `onrampTransactionFailed` example); the
    /// cause of a failure is in ``failureReason``.
    public var errorCode: String
    /// The end partner an aggregator made the purchase for; left out (not `null`) for others.
    public var partnerId: String?

    /// Every member is written, an absent one as `null`, but for ``partnerId``.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.nullLeavingOut(["partnerId"])

    /// The payload of `eventType` about `transaction`. The members the transaction mirrors are optional, as a
    /// payload from the real service may leave some out; the server's transactions fill in every one (the
    /// schema says which it always writes).
    public init(
        eventType: String, transaction: OnrampTransaction, isAppToApp: Bool, partnerId: String?
    ) {
        self.eventType = eventType
        transactionId = transaction.transactionId
        status = transaction.status
        type = transaction.type
        userType = transaction.userType
        userId = transaction.userId
        partnerUserRef = transaction.partnerUserRef
        self.isAppToApp = isAppToApp
        purchaseCurrency = transaction.purchaseCurrency
        purchaseNetwork = transaction.purchaseNetwork
        purchaseAmount = transaction.purchaseAmount
        paymentTotal = transaction.paymentTotal
        paymentSubtotal = transaction.paymentSubtotal
        paymentTotalUsd = transaction.paymentTotalUsd
        coinbaseFee = transaction.coinbaseFee
        networkFee = transaction.networkFee
        exchangeRate = transaction.exchangeRate
        txHash = transaction.txHash
        walletAddress = transaction.walletAddress
        contractAddress = transaction.contractAddress
        country = transaction.country
        paymentMethod = transaction.paymentMethod
        createdAt = transaction.createdAt
        completedAt = transaction.completedAt
        endPartnerName = transaction.endPartnerName
        failureReason = transaction.failureReason
        errorCode = "ERROR_CODE_UNSPECIFIED"
        self.partnerId = partnerId
    }

    public static let schema = APISchema.object(
        [
            "eventType": .string, "transactionId": .string, "status": .string, "type": .string, "userType": .string,
            "userId": .string, "partnerUserRef": .string, "isAppToApp": .boolean, "purchaseCurrency": .string,
            "purchaseNetwork": .string, "purchaseAmount": OnrampTransaction.Amount.schema,
            "paymentTotal": OnrampTransaction.Amount.schema, "paymentSubtotal": OnrampTransaction.Amount.schema,
            "paymentTotalUsd": OnrampTransaction.Amount.schema, "coinbaseFee": OnrampTransaction.Amount.schema,
            "networkFee": OnrampTransaction.Amount.schema, "exchangeRate": OnrampTransaction.Amount.schema,
            "txHash": .string, "walletAddress": .string, "contractAddress": .string, "country": .string,
            "paymentMethod": .string, "createdAt": .dateTime, "completedAt": APISchema.dateTime.nullable,
            "endPartnerName": .string, "failureReason": APISchema.string.nullable, "errorCode": .string,
            "partnerId": .string,
        ],
        required: [
            "eventType", "transactionId", "status", "type", "userType", "userId", "partnerUserRef", "isAppToApp",
            "purchaseCurrency", "purchaseNetwork", "purchaseAmount", "paymentTotal", "paymentSubtotal",
            "paymentTotalUsd", "coinbaseFee", "networkFee", "exchangeRate", "txHash", "walletAddress",
            "contractAddress", "country", "paymentMethod", "createdAt", "completedAt", "endPartnerName",
            "failureReason", "errorCode",
        ])
}

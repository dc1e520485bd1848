/// A sell as Coinbase's sell transactions API answers it (snake_case, amounts as `{value, currency}`), which
/// Coinbase's demo reads (`utils/fetchOfframpTransaction.ts`: `to_address`, `sell_amount.value`, `asset`,
/// `network`). The server writes it; what the API promises of it is the server's schema
/// (`OfframpRoutes.Operations.sell`), which names the statuses and cash-out methods.
public struct OfframpTransactionObject: WireObject, Codable, Equatable {
    /// The sell's id.
    public var transactionId: String
    /// `TRANSACTION_STATUS_…`.
    public var status: String
    /// The asset sold.
    public var asset: String
    /// Its network.
    public var network: String
    /// The crypto sold, in the asset.
    public var sellAmount: OnrampTransaction.Amount
    /// What the user receives.
    public var total: OnrampTransaction.Amount
    /// The cash value before the fee.
    public var subtotal: OnrampTransaction.Amount
    /// The fee.
    public var coinbaseFee: OnrampTransaction.Amount
    /// The cash price of one unit of the asset.
    public var unitPrice: OnrampTransaction.Amount
    /// The cash-out method (`FIAT_WALLET`, `ACH_BANK_ACCOUNT`, `PAYPAL`).
    public var paymentMethod: String
    /// The wallet the crypto comes from.
    public var fromAddress: String
    /// The deposit address the user sends the crypto to.
    public var toAddress: String
    /// The deposit's on-chain hash; empty until it arrives.
    public var txHash: String
    /// Where the sell page sends the user back.
    public var redirectUrl: String
    /// The partner's reference for the user.
    public var partnerUserRef: String
    /// When it was created (RFC 3339).
    public var createdAt: String
    /// When it last changed (RFC 3339).
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case transactionId = "transaction_id", status, asset, network, sellAmount = "sell_amount", total, subtotal
        case coinbaseFee = "coinbase_fee", unitPrice = "unit_price", paymentMethod = "payment_method"
        case fromAddress = "from_address", toAddress = "to_address", txHash = "tx_hash", redirectUrl = "redirect_url"
        case partnerUserRef = "partner_user_ref", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// Creates a sell object.
    public init(
        transactionId: String, status: String, asset: String, network: String, sellAmount: OnrampTransaction.Amount,
        total: OnrampTransaction.Amount, subtotal: OnrampTransaction.Amount, coinbaseFee: OnrampTransaction.Amount,
        unitPrice: OnrampTransaction.Amount, paymentMethod: String, fromAddress: String, toAddress: String,
        txHash: String, redirectUrl: String, partnerUserRef: String, createdAt: String, updatedAt: String
    ) {
        self.transactionId = transactionId
        self.status = status
        self.asset = asset
        self.network = network
        self.sellAmount = sellAmount
        self.total = total
        self.subtotal = subtotal
        self.coinbaseFee = coinbaseFee
        self.unitPrice = unitPrice
        self.paymentMethod = paymentMethod
        self.fromAddress = fromAddress
        self.toAddress = toAddress
        self.txHash = txHash
        self.redirectUrl = redirectUrl
        self.partnerUserRef = partnerUserRef
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// An amount of money: `{value, currency}`, the value a decimal string.
    public static let money = APISchema.object(
        ["value": .decimalString, "currency": .string], required: ["value", "currency"])

    public static let schema = APISchema.object(
        [
            "transaction_id": .string, "status": .string, "asset": .string, "network": .string,
            "sell_amount": money, "total": money, "subtotal": money, "coinbase_fee": money, "unit_price": money,
            "payment_method": .string, "from_address": .string,
            "to_address": APISchema.string.described("The deposit address the user sends the crypto to."),
            "tx_hash": APISchema.string.described("Empty until the deposit arrives."), "redirect_url": .string,
            "partner_user_ref": .string, "created_at": .dateTime, "updated_at": .dateTime,
        ],
        required: [
            "transaction_id", "status", "asset", "network", "sell_amount", "total", "subtotal", "coinbase_fee",
            "unit_price", "payment_method", "from_address", "to_address", "tx_hash", "redirect_url",
            "partner_user_ref", "created_at", "updated_at",
        ])
}

/// An `offramp.transaction.*` webhook's payload (cdp-sdk 1.51.0 `OfframpTransactionPayload`): the sell in
/// camelCase with the event's type first, `minimumTotal` (the least the user receives: the quoted total, as
/// the sandbox's price does not move during a sell) and `exchangeRate` (the price of one unit of the asset,
/// what `unitPrice` says too).
public struct OfframpTransactionPayload: WireObject, Codable, Equatable {
    /// `offramp.transaction.created | updated | success | failed`.
    public var eventType: String
    /// The sell's id.
    public var transactionId: String
    /// `TRANSACTION_STATUS_…`.
    public var status: String
    /// The asset sold.
    public var asset: String
    /// Its network.
    public var network: String
    /// The crypto sold.
    public var sellAmount: OnrampTransaction.Amount
    /// What the user receives.
    public var total: OnrampTransaction.Amount
    /// The cash value before the fee.
    public var subtotal: OnrampTransaction.Amount
    /// The least the user receives.
    public var minimumTotal: OnrampTransaction.Amount
    /// The fee.
    public var coinbaseFee: OnrampTransaction.Amount
    /// The cash price of one unit of the asset.
    public var unitPrice: OnrampTransaction.Amount
    /// The same price, under cdp-sdk's name.
    public var exchangeRate: OnrampTransaction.Amount
    /// The wallet the crypto comes from.
    public var fromAddress: String
    /// The deposit address.
    public var toAddress: String
    /// The deposit's on-chain hash; empty until it arrives.
    public var txHash: String
    /// Where the sell page sends the user back.
    public var redirectUrl: String
    /// The cash-out method.
    public var paymentMethod: String
    /// The partner's reference for the user.
    public var partnerUserRef: String
    /// When it was created (RFC 3339).
    public var createdAt: String
    /// When it last changed (RFC 3339).
    public var updatedAt: String

    /// The payload of `eventType` about `sell`.
    public init(eventType: String, sell: OfframpTransactionObject) {
        self.eventType = eventType
        transactionId = sell.transactionId
        status = sell.status
        asset = sell.asset
        network = sell.network
        sellAmount = sell.sellAmount
        total = sell.total
        subtotal = sell.subtotal
        minimumTotal = sell.total
        coinbaseFee = sell.coinbaseFee
        unitPrice = sell.unitPrice
        exchangeRate = sell.unitPrice
        fromAddress = sell.fromAddress
        toAddress = sell.toAddress
        txHash = sell.txHash
        redirectUrl = sell.redirectUrl
        paymentMethod = sell.paymentMethod
        partnerUserRef = sell.partnerUserRef
        createdAt = sell.createdAt
        updatedAt = sell.updatedAt
    }

    public static let schema = APISchema.object(
        [
            "eventType": .string, "transactionId": .string, "status": .string, "asset": .string, "network": .string,
            "sellAmount": OfframpTransactionObject.money, "total": OfframpTransactionObject.money,
            "subtotal": OfframpTransactionObject.money, "minimumTotal": OfframpTransactionObject.money,
            "coinbaseFee": OfframpTransactionObject.money, "unitPrice": OfframpTransactionObject.money,
            "exchangeRate": OfframpTransactionObject.money, "fromAddress": .string, "toAddress": .string,
            "txHash": .string, "redirectUrl": .string, "paymentMethod": .string, "partnerUserRef": .string,
            "createdAt": .dateTime, "updatedAt": .dateTime,
        ],
        required: [
            "eventType", "transactionId", "status", "asset", "network", "sellAmount", "total", "subtotal",
            "minimumTotal", "coinbaseFee", "unitPrice", "exchangeRate", "fromAddress", "toAddress", "txHash",
            "redirectUrl", "paymentMethod", "partnerUserRef", "createdAt", "updatedAt",
        ])
}

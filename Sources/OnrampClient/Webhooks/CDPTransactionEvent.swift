/// An `onramp.transaction.*` webhook: flat JSON with `eventType` at the top, in either of its forms
/// (cdp-sdk `OnrampTransactionEvent`, a oneOf): a transaction (App2App and hosted purchases,
/// `transactionId`) or a Headless Onramp order (`orderId`, `purchaseAmount` as plain text,
/// `destinationAddress`). Settled means `eventType == "onramp.transaction.success"`; credit the user
/// from this, never from the redirect.
public struct CDPTransactionEvent: Decodable, Sendable, Equatable {
    /// An amount with its currency, as decimal text.
    public struct Amount: Decodable, Sendable, Equatable {
        /// The decimal amount (`"25.00"`).
        public let value: String
        /// The currency code.
        public let currency: String
    }

    /// `onramp.transaction.created | updated | success | failed`.
    public let eventType: String
    /// The transaction id, or for an order its `orderId`.
    public let transactionId: String
    /// The order id, for a Headless Onramp order.
    public let orderId: String?
    /// `ONRAMP_TRANSACTION_STATUS_…`.
    public let status: String
    /// The partner's reference for the user.
    public let partnerUserRef: String?
    /// `true` for App2App purchases.
    public let isAppToApp: Bool?
    /// The purchased crypto amount.
    public let purchaseAmount: Amount?
    /// The purchased asset.
    public let purchaseCurrency: String?
    /// The network of the purchase.
    public let purchaseNetwork: String?
    /// The destination wallet.
    public let walletAddress: String?
    /// The on-chain hash once sent (empty before).
    public let txHash: String?
    /// Why the transaction failed, when it did.
    public let failureReason: String?

    /// Whether the crypto was delivered.
    public var isSettled: Bool { eventType == "onramp.transaction.success" }

    private enum Keys: String, CodingKey {
        case eventType, transactionId, orderId, status, partnerUserRef, isAppToApp, purchaseAmount, purchaseCurrency
        case purchaseNetwork, destinationNetwork, walletAddress, destinationAddress, txHash, failureReason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        eventType = try container.decode(String.self, forKey: .eventType)
        orderId = try container.decodeIfPresent(String.self, forKey: .orderId)
        if let id = try container.decodeIfPresent(String.self, forKey: .transactionId) ?? orderId {
            transactionId = id
        } else {
            throw DecodingError.keyNotFound(
                Keys.transactionId,
                .init(codingPath: decoder.codingPath, debugDescription: "no transactionId or orderId"))
        }
        status = try container.decode(String.self, forKey: .status)
        partnerUserRef = try container.decodeIfPresent(String.self, forKey: .partnerUserRef)
        isAppToApp = try container.decodeIfPresent(Bool.self, forKey: .isAppToApp)
        let currency = try container.decodeIfPresent(String.self, forKey: .purchaseCurrency)
        purchaseCurrency = currency
        if let amount = try? container.decodeIfPresent(Amount.self, forKey: .purchaseAmount) {
            purchaseAmount = amount
        } else {
            purchaseAmount = try container.decodeIfPresent(String.self, forKey: .purchaseAmount).map {
                Amount(value: $0, currency: currency ?? "")
            }
        }
        purchaseNetwork =
            try container.decodeIfPresent(String.self, forKey: .purchaseNetwork)
            ?? container.decodeIfPresent(String.self, forKey: .destinationNetwork)
        walletAddress =
            try container.decodeIfPresent(String.self, forKey: .walletAddress)
            ?? container.decodeIfPresent(String.self, forKey: .destinationAddress)
        txHash = try container.decodeIfPresent(String.self, forKey: .txHash)
        failureReason = try container.decodeIfPresent(String.self, forKey: .failureReason)
    }
}

/// An App2App `onramp.transaction.*` webhook: flat JSON with `eventType` at the top. Settled means
/// `eventType == "onramp.transaction.success"`; credit the user from this, never from the redirect.
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
    /// The transaction id.
    public let transactionId: String
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
}

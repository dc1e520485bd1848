/// One transaction of the transactions API (`GET /onramp/v1/buy/user/{partnerUserRef}/transactions`).
public struct OnrampTransaction: Decodable, Sendable, Equatable {
    /// An amount with its currency, as decimal text.
    public struct Amount: Decodable, Sendable, Equatable {
        /// The decimal amount.
        public let value: String
        /// The currency code.
        public let currency: String
    }

    /// This API's transaction id (not the redirect's).
    public let transactionId: String
    /// `ONRAMP_TRANSACTION_STATUS_…`.
    public let status: String
    /// The partner's user reference.
    public let partnerUserRef: String?
    /// The purchased asset.
    public let purchaseCurrency: String?
    /// The network.
    public let purchaseNetwork: String?
    /// The crypto received.
    public let purchaseAmount: Amount?
    /// The fiat paid, fee-inclusive.
    public let paymentTotal: Amount?
    /// The on-chain hash once sent.
    public let txHash: String?
    /// The destination wallet.
    public let walletAddress: String?

    /// Whether the crypto was delivered.
    public var isSettled: Bool { status == "ONRAMP_TRANSACTION_STATUS_SUCCESS" }

    private enum CodingKeys: String, CodingKey {
        case transactionId = "transaction_id", status, partnerUserRef = "partner_user_ref"
        case purchaseCurrency = "purchase_currency", purchaseNetwork = "purchase_network"
        case purchaseAmount = "purchase_amount", paymentTotal = "payment_total", txHash = "tx_hash"
        case walletAddress = "wallet_address"
    }
}

/// A purchase confirmed as settled by a signed webhook or the authenticated transactions API: the only
/// grounds on which to credit a user.
public struct ConfirmedSettlement: Sendable, Equatable {
    /// Where the confirmation came from.
    public enum Source: Sendable, Equatable {
        /// A verified `onramp.transaction.success` delivery with this event id.
        case webhook(eventId: String)
        /// The JWT-authenticated transactions API.
        case transactionsAPI
    }

    /// The partner's user reference.
    public let partnerUserRef: String
    /// The onramp's transaction id.
    public let transactionId: String
    /// The crypto amount delivered (decimal text).
    public let amount: String?
    /// The asset.
    public let currency: String?
    /// The on-chain hash.
    public let txHash: String?
    /// The confirmation's source.
    public let source: Source

    /// A confirmation of transaction `transactionId` for `partnerUserRef` from `source` (made by the settlement
    /// matcher and by the backend's transactions API client).
    package init(
        partnerUserRef: String, transactionId: String, amount: String?, currency: String?, txHash: String?,
        source: Source
    ) {
        self.partnerUserRef = partnerUserRef
        self.transactionId = transactionId
        self.amount = amount
        self.currency = currency
        self.txHash = txHash
        self.source = source
    }
}

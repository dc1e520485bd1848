/// One credit in the ``PartnerLedger``.
public struct LedgerCredit: Sendable, Equatable {
    /// The webhook event id that settled it (the idempotency key).
    public let eventId: String
    /// The partner's user reference.
    public let userRef: String
    /// The crypto amount credited (decimal text).
    public let amount: String
    /// The asset.
    public let currency: String
    /// The on-chain hash, when known.
    public let txHash: String?
}

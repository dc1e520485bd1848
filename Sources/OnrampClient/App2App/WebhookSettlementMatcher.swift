/// Matches verified `onramp.transaction.*` webhooks (see ``WebhookVerifier/verifyCDP(payload:headers:now:)``)
/// to a user by `partnerUserRef`, and reports only settled ones.
public struct WebhookSettlementMatcher: Sendable {
    /// The user reference sent with the purchase.
    public let partnerUserRef: String
    /// When set, the wallet must match too (case-insensitive).
    public let walletAddress: String?

    /// Creates a matcher.
    public init(partnerUserRef: String, walletAddress: String? = nil) {
        self.partnerUserRef = partnerUserRef
        self.walletAddress = walletAddress
    }

    /// The settlement that `event` (delivered with `eventId`, the `X-Event-Id` header) confirms, or `nil` when
    /// it is for another user or not `onramp.transaction.success`.
    public func settlement(from event: CDPTransactionEvent, eventId: String) -> ConfirmedSettlement? {
        guard event.isSettled, event.partnerUserRef == partnerUserRef else { return nil }
        if let walletAddress, event.walletAddress?.lowercased() != walletAddress.lowercased() { return nil }
        return ConfirmedSettlement(
            partnerUserRef: partnerUserRef, transactionId: event.transactionId, amount: event.purchaseAmount?.value,
            currency: event.purchaseAmount?.currency ?? event.purchaseCurrency, txHash: event.txHash,
            source: .webhook(eventId: eventId))
    }
}

/// What the backend's webhook endpoint did with one delivery, for logs and the demo's output.
public struct ReceivedWebhook: Sendable, Equatable {
    /// The signature scheme of the delivery.
    public enum Scheme: String, Sendable {
        /// `X-Hook0-Signature` (App2App).
        case cdp
        /// `Stripe-Signature` (Embedded Components).
        case stripe
    }

    /// The scheme.
    public let scheme: Scheme
    /// The event id.
    public let eventId: String
    /// The event type.
    public let type: String
    /// The credit it caused, or `nil` (not settled, unknown user, or a duplicate).
    public let credit: LedgerCredit?
    /// Whether this settled event had already been credited (a redelivery).
    public let duplicate: Bool
}

/// The lifecycle of an offramp (sell) transaction once the user pressed "Cash out now": `STARTED` until
/// the crypto arrives at the deposit address (`SUCCESS`, the fiat paid out), the send fails (`FAILED`),
/// or 30 minutes pass without it (`EXPIRED`).
public struct OfframpTransaction: Sendable, Hashable {
    /// A status, in the sell transactions API's spelling.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Waiting for the user's crypto at the deposit address.
        case started = "TRANSACTION_STATUS_STARTED"
        /// The crypto arrived and the cash-out was paid.
        case success = "TRANSACTION_STATUS_SUCCESS"
        /// The send or the payout failed.
        case failed = "TRANSACTION_STATUS_FAILED"
        /// No crypto arrived in time.
        case expired = "TRANSACTION_STATUS_EXPIRED"

        /// Whether the status is final.
        public var isTerminal: Bool { self != .started }
    }

    /// What happens to a sell.
    public enum Event: Sendable, Hashable {
        /// The crypto arrived in the on-chain transaction with this hash.
        case depositReceived(txHash: String)
        /// The send or the payout failed.
        case fail
        /// The deposit window closed.
        case expire
    }

    /// What the sell emits, named after the `offramp.transaction.*` webhook event types.
    public enum DomainEvent: Sendable, Hashable {
        /// `offramp.transaction.created`.
        case created
        /// `offramp.transaction.updated` with the new status.
        case updated(Status)
        /// `offramp.transaction.success`.
        case success
        /// `offramp.transaction.failed` (also for an expired sell).
        case failed

        /// The webhook event type.
        public var eventType: String {
            switch self {
            case .created: return "offramp.transaction.created"
            case .updated: return "offramp.transaction.updated"
            case .success: return "offramp.transaction.success"
            case .failed: return "offramp.transaction.failed"
            }
        }
    }

    /// How long the user has to send the crypto.
    public static let depositWindowMilliseconds: Int64 = 30 * 60_000

    /// The current status.
    public private(set) var status: Status
    /// The deposit's on-chain hash, once received.
    public private(set) var txHash: String?

    /// Restores a sell from stored fields.
    public init(status: Status, txHash: String? = nil) {
        self.status = status
        self.txHash = txHash
    }

    /// A sell waiting for the user's crypto, with the event that announces it.
    public static func start() -> (transaction: OfframpTransaction, events: [DomainEvent]) {
        (OfframpTransaction(status: .started), [.created])
    }

    /// Applies `event` and returns the events to emit.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/illegalTransition``.
    public mutating func handle(_ event: Event) throws -> [DomainEvent] {
        guard status == .started else {
            throw OnrampError.illegalTransition(
                machine: "OfframpTransaction", state: status.rawValue, event: "\(event)")
        }
        switch event {
        case .depositReceived(let hash):
            status = .success
            txHash = hash
            return [.updated(.success), .success]
        case .fail:
            status = .failed
            return [.updated(.failed), .failed]
        case .expire:
            status = .expired
            return [.updated(.expired), .failed]
        }
    }
}

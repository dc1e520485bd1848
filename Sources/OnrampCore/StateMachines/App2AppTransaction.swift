/// The lifecycle of an App2App transaction: `CREATED → IN_PROGRESS → SUCCESS | FAILED`.
public struct App2AppTransaction: Sendable, Hashable {
    /// A transaction status, in the transactions API's spelling.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Created when the user confirmed.
        case created = "ONRAMP_TRANSACTION_STATUS_CREATED"
        /// Payment taken, crypto being sent.
        case inProgress = "ONRAMP_TRANSACTION_STATUS_IN_PROGRESS"
        /// Crypto delivered: the only settled state.
        case success = "ONRAMP_TRANSACTION_STATUS_SUCCESS"
        /// The purchase or the send failed.
        case failed = "ONRAMP_TRANSACTION_STATUS_FAILED"

        /// Whether the status is final.
        public var isTerminal: Bool { self == .success || self == .failed }
    }

    /// Why a transaction failed, in the transactions API's spelling.
    public enum FailureReason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The fiat purchase failed.
        case buyFailed = "FAILURE_REASON_BUY_FAILED"
        /// The on-chain send failed.
        case sendFailed = "FAILURE_REASON_SEND_FAILED"
    }

    /// What happens to a transaction.
    public enum Event: Sendable, Hashable {
        /// Settlement started.
        case start
        /// The crypto was sent in the transaction with this hash.
        case succeed(txHash: String)
        /// The purchase failed.
        case fail(FailureReason)
    }

    /// What the transaction emits (`onramp.transaction.*`).
    public typealias DomainEvent = OnrampTransactionEvent<Status, FailureReason>

    /// The current status.
    public private(set) var status: Status
    /// The on-chain hash, once successful.
    public private(set) var txHash: String?
    /// The failure reason, once failed.
    public private(set) var failureReason: FailureReason?

    /// Restores a transaction from stored fields.
    public init(status: Status, txHash: String? = nil, failureReason: FailureReason? = nil) {
        self.status = status
        self.txHash = txHash
        self.failureReason = failureReason
    }

    /// A new transaction in `CREATED`, with the event that announces it.
    public static func create() -> (transaction: App2AppTransaction, events: [DomainEvent]) {
        (App2AppTransaction(status: .created), [.created])
    }

    /// Applies `event` and returns the events to emit.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/illegalTransition``.
    public mutating func handle(_ event: Event) throws -> [DomainEvent] {
        switch (status, event) {
        case (.created, .start):
            status = .inProgress
            return [.updated(.inProgress)]
        case (.created, .fail(let reason)), (.inProgress, .fail(let reason)):
            status = .failed
            failureReason = reason
            return [.updated(.failed), .failed(reason)]
        case (.inProgress, .succeed(let hash)):
            status = .success
            txHash = hash
            return [.updated(.success), .success]
        case (.created, .succeed), (.inProgress, .start), (.success, _), (.failed, _):
            throw OnrampError.illegalTransition(
                machine: "App2AppTransaction", state: status.rawValue, event: "\(event)")
        }
    }
}

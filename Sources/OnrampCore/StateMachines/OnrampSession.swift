/// The lifecycle of an Embedded onramp session:
/// `initialized → requires_payment → fulfillment_processing → fulfillment_complete`, and `rejected`
/// when blocked. Retryable problems keep the status and set ``lastError``.
public struct OnrampSession: Sendable, Hashable {
    /// A session status, in the contract's spelling.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Created, details not yet complete.
        case initialized
        /// Ready for checkout.
        case requiresPayment = "requires_payment"
        /// Paid; crypto being delivered.
        case fulfillmentProcessing = "fulfillment_processing"
        /// Crypto delivered.
        case fulfillmentComplete = "fulfillment_complete"
        /// Blocked for good.
        case rejected

        /// Whether the status is final.
        public var isTerminal: Bool { self == .fulfillmentComplete || self == .rejected }
    }

    /// What happens to a session.
    public enum Event: Sendable, Hashable {
        /// The session's details are complete and it can be paid.
        case ready
        /// A check outside checkout found a problem (retryable ones keep the status).
        case blocked(OnrampSessionLastError)
        /// The quote was refreshed; clears `charged_with_expired_quote`.
        case quoteRefreshed
        /// Checkout ran with this outcome.
        case checkout(CheckoutOutcome)
        /// Settlement delivered the crypto in this transaction.
        case fulfillmentSucceeded(transactionID: String)
        /// Settlement failed.
        case fulfillmentFailed
    }

    /// What the session emits.
    public enum DomainEvent: Sendable, Hashable {
        /// `crypto.onramp_session.updated`: the status changed (never emitted on creation).
        case updated(status: Status, lastError: OnrampSessionLastError?)

        /// The webhook event type.
        public var eventType: String { "crypto.onramp_session.updated" }
    }

    /// The current status.
    public private(set) var status: Status
    /// The latest problem, or `nil`.
    public private(set) var lastError: OnrampSessionLastError?
    /// The settlement transaction id, once complete.
    public private(set) var transactionID: String?

    /// Creates a session in `status` (``Status/initialized`` for a new one) or restores a stored one.
    public init(
        status: Status = .initialized, lastError: OnrampSessionLastError? = nil, transactionID: String? = nil
    ) {
        self.status = status
        self.lastError = lastError
        self.transactionID = transactionID
    }

    /// Applies `event` and returns the events to emit (one per status change).
    ///
    /// Checkout again after the session was paid is accepted and changes nothing (the SDK may repeat
    /// it after 3-D Secure).
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/illegalTransition``.
    public mutating func handle(_ event: Event) throws -> [DomainEvent] {
        let previous = status
        switch (status, event) {
        case (.initialized, .ready):
            status = .requiresPayment
            lastError = nil
        case (.initialized, .blocked(let error)), (.requiresPayment, .blocked(let error)):
            apply(error)
        case (.initialized, .quoteRefreshed), (.requiresPayment, .quoteRefreshed):
            if lastError == .chargedWithExpiredQuote { lastError = nil }
        case (.requiresPayment, .checkout(let outcome)):
            checkout(outcome)
        case (.fulfillmentProcessing, .checkout), (.fulfillmentComplete, .checkout):
            return []
        case (.fulfillmentProcessing, .fulfillmentSucceeded(let id)):
            status = .fulfillmentComplete
            transactionID = id
            lastError = nil
        case (.fulfillmentProcessing, .fulfillmentFailed):
            apply(.transactionFailed)
        case (.initialized, .checkout), (.initialized, .fulfillmentSucceeded), (.initialized, .fulfillmentFailed),
            (.requiresPayment, .ready), (.requiresPayment, .fulfillmentSucceeded),
            (.requiresPayment, .fulfillmentFailed), (.fulfillmentProcessing, .ready),
            (.fulfillmentProcessing, .blocked), (.fulfillmentProcessing, .quoteRefreshed),
            (.fulfillmentComplete, _), (.rejected, _):
            throw OnrampError.illegalTransition(
                machine: "OnrampSession", state: status.rawValue, event: "\(event)")
        }
        return status == previous ? [] : [.updated(status: status, lastError: lastError)]
    }

    private mutating func apply(_ error: OnrampSessionLastError) {
        lastError = error
        if !error.isRetryable { status = .rejected }
    }

    private mutating func checkout(_ outcome: CheckoutOutcome) {
        switch outcome {
        case .blocked(let error):
            apply(error)
        case .quoteExpired:
            apply(.chargedWithExpiredQuote)
        case .payment(.succeeded):
            status = .fulfillmentProcessing
            lastError = nil
        case .payment(.requiresAction), .payment(.missingMandate):
            apply(.actionRequired)
        case .payment(.declined):
            apply(.transactionFailed)
        }
    }
}

/// The lifecycle of a Headless Onramp order (Coinbase's guest checkout with Apple Pay or Google Pay):
/// `PENDING_PAYMENT → PROCESSING → COMPLETED | FAILED`, and `PENDING_PAYMENT → FAILED` when the payment
/// sheet is declined. A cancelled sheet changes nothing: the order waits for payment.
public struct GuestCheckoutOrder: Sendable, Hashable {
    /// An order status, in the API's spelling (cdp-sdk `OnrampOrderStatus`).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// An embedded-mode order: the user has not entered contact details yet.
        case pendingAuth = "ONRAMP_ORDER_STATUS_PENDING_AUTH"
        /// An embedded-mode order: the user's one-time code is awaited.
        case pendingVerification = "ONRAMP_ORDER_STATUS_PENDING_VERIFICATION"
        /// Created (or verified); the user has not paid yet.
        case pendingPayment = "ONRAMP_ORDER_STATUS_PENDING_PAYMENT"
        /// Paid; the crypto is being sent.
        case processing = "ONRAMP_ORDER_STATUS_PROCESSING"
        /// Crypto delivered: the only settled state.
        case completed = "ONRAMP_ORDER_STATUS_COMPLETED"
        /// Declined, or the purchase or the send failed.
        case failed = "ONRAMP_ORDER_STATUS_FAILED"

        /// Whether the status is final.
        public var isTerminal: Bool { self == .completed || self == .failed }
    }

    /// Why an order failed.
    public enum FailureReason: String, Sendable, Hashable, CaseIterable {
        /// The wallet's payment sheet declined the payment.
        case paymentDeclined = "FAILURE_REASON_PAYMENT_DECLINED"
        /// The fiat purchase failed after payment.
        case buyFailed = "FAILURE_REASON_BUY_FAILED"
        /// The on-chain send failed.
        case sendFailed = "FAILURE_REASON_SEND_FAILED"
    }

    /// What happens to an order.
    public enum Event: Sendable, Hashable {
        /// An embedded-mode user entered (or changed) contact details; a code was sent.
        case contactEntered
        /// An embedded-mode user submitted the right code.
        case verified
        /// The payment sheet authorised the payment.
        case paymentApproved
        /// The payment sheet declined it.
        case paymentDeclined
        /// The crypto was sent in the transaction with this hash.
        case delivered(txHash: String)
        /// The purchase or the send failed.
        case fail(FailureReason)
    }

    /// What the order emits (`onramp.transaction.*`, order-form payloads).
    public typealias DomainEvent = OnrampTransactionEvent<Status, FailureReason>

    /// The current status.
    public private(set) var status: Status
    /// The on-chain hash, once completed.
    public private(set) var txHash: String?
    /// The failure reason, once failed.
    public private(set) var failureReason: FailureReason?

    /// Restores an order from stored fields.
    public init(status: Status, txHash: String? = nil, failureReason: FailureReason? = nil) {
        self.status = status
        self.txHash = txHash
        self.failureReason = failureReason
    }

    /// A new order, with the event that announces it: waiting for payment, or, in embedded mode for a user not
    /// yet verified, for the user's contact details.
    public static func create(awaitingVerification: Bool = false) -> (order: GuestCheckoutOrder, events: [DomainEvent])
    {
        (GuestCheckoutOrder(status: awaitingVerification ? .pendingAuth : .pendingPayment), [.created])
    }

    /// Applies `event` and returns the events to emit.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/illegalTransition``.
    public mutating func handle(_ event: Event) throws -> [DomainEvent] {
        switch (status, event) {
        case (.pendingAuth, .contactEntered):
            status = .pendingVerification
            return [.updated(.pendingVerification)]
        case (.pendingVerification, .contactEntered):
            return []
        case (.pendingVerification, .verified):
            status = .pendingPayment
            return [.updated(.pendingPayment)]
        case (.pendingPayment, .paymentApproved):
            status = .processing
            return [.updated(.processing)]
        case (.pendingPayment, .paymentDeclined):
            return fail(.paymentDeclined)
        case (.processing, .delivered(let hash)):
            status = .completed
            txHash = hash
            return [.updated(.completed), .success]
        case (.processing, .fail(let reason)):
            return fail(reason)
        case (.pendingAuth, _), (.pendingVerification, _), (.pendingPayment, .contactEntered),
            (.pendingPayment, .verified), (.pendingPayment, .delivered), (.pendingPayment, .fail),
            (.processing, .contactEntered), (.processing, .verified), (.processing, .paymentApproved),
            (.processing, .paymentDeclined), (.completed, _), (.failed, _):
            throw OnrampError.illegalTransition(
                machine: "GuestCheckoutOrder", state: status.rawValue, event: "\(event)")
        }
    }

    private mutating func fail(_ reason: FailureReason) -> [DomainEvent] {
        status = .failed
        failureReason = reason
        return [.updated(.failed), .failed(reason)]
    }
}

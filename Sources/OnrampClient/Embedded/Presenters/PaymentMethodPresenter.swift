/// Card details entered by the user.
public struct CardDetails: Sendable, Equatable {
    /// The card number.
    public var number: String
    /// Expiry month.
    public var expMonth: Int
    /// Expiry year.
    public var expYear: Int
    /// The security code.
    public var cvc: String

    /// Creates card details.
    public init(number: String, expMonth: Int, expYear: Int, cvc: String) {
        self.number = number
        self.expMonth = expMonth
        self.expYear = expYear
        self.cvc = cvc
    }
}

/// What the user picked in the payment-method sheet.
public enum PaymentMethodSelection: Sendable, Equatable {
    /// A new card (for Apple Pay, the card the wallet supplied).
    case card(CardDetails)
    /// A new US bank account.
    case bankAccount(routingNumber: String, accountNumber: String)
    /// A payment method that already exists (`pm_…`, or a test id like `pm_card_visa`).
    case existing(paymentMethodId: String)
}

/// Presents the wallet sheet of ``CryptoOnrampCoordinator/collectPaymentMethod(type:from:)``.
@MainActor public protocol PaymentMethodPresenter {
    /// Returns the user's selection, or `nil` when they canceled.
    func selectPaymentMethod(type: PaymentMethodType, from viewController: PresentingViewController) async throws
        -> PaymentMethodSelection?
}

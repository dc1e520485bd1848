/// Selects a fixed payment method (default: the card `4242 4242 4242 4242`); `nil` cancels.
@MainActor public struct HeadlessPaymentMethodPresenter: PaymentMethodPresenter {
    /// The selection returned.
    public let selection: PaymentMethodSelection?

    /// Creates the presenter.
    public init(
        selection: PaymentMethodSelection? = .card(
            CardDetails(number: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123"))
    ) {
        self.selection = selection
    }

    /// Returns ``selection``.
    public func selectPaymentMethod(type: PaymentMethodType, from viewController: PresentingViewController)
        async throws -> PaymentMethodSelection?
    {
        selection
    }
}

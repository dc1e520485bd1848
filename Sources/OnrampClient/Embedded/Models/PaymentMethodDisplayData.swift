/// How to show the selected payment method in the app's UI.
public struct PaymentMethodDisplayData: Sendable, Equatable {
    /// `card`, `us_bank_account` or `apple_pay`.
    public let paymentMethodType: String
    /// An icon name for the brand or bank (`visa`, `mastercard`, `bank`, `apple_pay`).
    public let icon: String
    /// The main line (`Visa •••• 4242`).
    public let label: String
    /// The second line (`Expires 12/34`, a bank name), if any.
    public let sublabel: String?
}

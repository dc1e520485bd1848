import OnrampCore

extension PaymentMethodType {
    /// The name the hosted pages show for this payment method.
    package var displayName: String {
        switch self {
        case .card: "Card"
        case .ach: "Bank account (ACH)"
        case .applePay: "Apple Pay"
        case .fiatWallet: "Cash balance"
        case .cryptoWallet: "Crypto balance"
        case .paypal: "PayPal"
        }
    }
}

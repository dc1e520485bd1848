extension PaymentMethodType {
    /// The spelling in the App2App transactions API and webhooks (`ACH_BANK_ACCOUNT` for ACH,
    /// `CRYPTO_ACCOUNT` for a crypto wallet).
    public var transactionsAPIValue: String {
        switch self {
        case .card: return "CARD"
        case .ach: return "ACH_BANK_ACCOUNT"
        case .applePay: return "APPLE_PAY"
        case .fiatWallet: return "FIAT_WALLET"
        case .cryptoWallet: return "CRYPTO_ACCOUNT"
        case .paypal: return "PAYPAL"
        }
    }

    /// The method for a transactions API spelling, including the guest-checkout variants and the
    /// request spellings; `nil` for values without a counterpart (`RTP`).
    public init?(transactionsAPIValue value: String) {
        switch value {
        case "CARD", "GUEST_CHECKOUT_CARD": self = .card
        case "ACH", "ACH_BANK_ACCOUNT": self = .ach
        case "APPLE_PAY", "GUEST_CHECKOUT_APPLE_PAY": self = .applePay
        case "FIAT_WALLET": self = .fiatWallet
        case "CRYPTO_WALLET", "CRYPTO_ACCOUNT": self = .cryptoWallet
        case "PAYPAL": self = .paypal
        default: return nil
        }
    }
}

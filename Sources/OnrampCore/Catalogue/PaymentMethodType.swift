/// A way to pay for a purchase, in the App2App contract's spelling.
public enum PaymentMethodType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A debit or credit card.
    case card = "CARD"
    /// A US bank account (ACH debit).
    case ach = "ACH"
    /// Apple Pay (a card in a wallet).
    case applePay = "APPLE_PAY"
    /// A fiat balance held with the onramp.
    case fiatWallet = "FIAT_WALLET"
    /// A crypto balance held with the onramp.
    case cryptoWallet = "CRYPTO_WALLET"
    /// PayPal.
    case paypal = "PAYPAL"

    /// Whether the method is card-based (cards and card wallets).
    public var isCard: Bool { self == .card || self == .applePay }
}

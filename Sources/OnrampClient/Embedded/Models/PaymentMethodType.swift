/// What ``CryptoOnrampCoordinator/collectPaymentMethod(type:from:)`` offers.
public enum PaymentMethodType: Sendable, Equatable {
    /// Cards.
    case card
    /// US bank accounts.
    case bankAccount
    /// Cards and bank accounts.
    case cardAndBankAccount
    /// Apple Pay with this request (collected as a card with `wallet.type = apple_pay`).
    case applePay(paymentRequest: ApplePayPaymentRequest)
}

/// The fields of an Apple Pay payment request the SDK needs (the app builds the `PKPaymentRequest` for the
/// sheet from the same values).
public struct ApplePayPaymentRequest: Sendable, Equatable {
    /// The merchant identifier.
    public var merchantIdentifier: String
    /// The merchant's country.
    public var country: String
    /// The currency.
    public var currency: String

    /// Creates a request.
    public init(merchantIdentifier: String, country: String, currency: String) {
        self.merchantIdentifier = merchantIdentifier
        self.country = country
        self.currency = currency
    }
}

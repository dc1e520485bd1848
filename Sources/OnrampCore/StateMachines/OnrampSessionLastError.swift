/// The `last_error` of an onramp session.
public enum OnrampSessionLastError: String, Sendable, Hashable, Codable, CaseIterable {
    /// The payment needs the user (3-D Secure, a bank mandate); check out again afterwards.
    case actionRequired = "action_required"
    /// KYC is incomplete.
    case missingKYC = "missing_kyc"
    /// Identity document verification is needed.
    case missingDocumentVerification = "missing_document_verification"
    /// Checkout used an expired quote; refresh the quote and check out again.
    case chargedWithExpiredQuote = "charged_with_expired_quote"
    /// The customer has no wallet for the destination.
    case missingConsumerWallet = "missing_consumer_wallet"
    /// The amount exceeds the customer's limits.
    case transactionLimitReached = "transaction_limit_reached"
    /// The customer's location is not supported.
    case locationNotSupported = "location_not_supported"
    /// The payment or the delivery failed.
    case transactionFailed = "transaction_failed"

    /// Whether the session can still succeed after the user acts.
    public var isRetryable: Bool {
        switch self {
        case .actionRequired, .missingKYC, .missingDocumentVerification, .chargedWithExpiredQuote,
            .missingConsumerWallet:
            return true
        case .transactionLimitReached, .locationNotSupported, .transactionFailed:
            return false
        }
    }
}

extension OnrampSessionLastError {
    /// What a session shows when ``KYCPolicy`` refuses its purchase with `refusal`: document
    /// verification, location and limit refusals by name, every other one as missing KYC.
    public init(kycRefusal refusal: OnrampError) {
        switch refusal.code {
        case .missingDocumentVerification: self = .missingDocumentVerification
        case .unsupportedCountry: self = .locationNotSupported
        case .transactionLimitReached: self = .transactionLimitReached
        default: self = .missingKYC
        }
    }
}

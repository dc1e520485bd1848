/// The result of ``CryptoOnrampCoordinator/authorize(linkAuthIntentId:from:)``.
public enum AuthorizationResult: Sendable, Equatable {
    /// The user consented; the crypto customer id (`crc_…`). The backend may now fetch tokens.
    case consented(customerId: String)
    /// The user declined to share.
    case denied
    /// The user closed the flow.
    case canceled
}

/// The result of ``CryptoOnrampCoordinator/verifyKYCInfo(updatedAddress:from:)``.
public enum VerifyKycResult: Sendable, Equatable {
    /// The user confirmed the data (and the updated address, if one was given).
    case confirmed
    /// The user wants to change the address: collect it and call `verifyKYCInfo(updatedAddress:from:)`.
    case updateAddress
    /// The user closed the flow.
    case canceled
}

/// The result of ``CryptoOnrampCoordinator/verifyIdentity(from:)``.
public enum VerificationResult: Sendable, Equatable {
    /// The user finished the document and selfie flow (the result arrives asynchronously).
    case completed
    /// The user left the flow.
    case canceled
}

/// The result of ``CryptoOnrampCoordinator/performCheckout(onrampSessionId:authenticationContext:clientSecretProvider:)``.
public enum CheckoutResult: Sendable, Equatable {
    /// Payment succeeded; fulfilment continues (watch the webhook for `fulfillment_complete`).
    case completed
    /// The user canceled an authentication step.
    case canceled
}

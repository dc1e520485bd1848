/// A Crypto Onramp SDK failure. Compare on ``code`` (stable); show ``userMessage``; log
/// ``developerMessage``. ``apiCode`` keeps the server's `error.code` when there was one.
public struct CryptoOnrampError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable category.
    public enum Code: String, Sendable, Equatable {
        /// `STPAPIClient.shared.publishableKey` is not set.
        case notConfigured = "not_configured"
        /// Another coordinator was created after this one; only one is active.
        case coordinatorInactive = "coordinator_inactive"
        /// The call needs a signed-in Link user (authorize or authenticateUserWithToken first).
        case notAuthenticated = "not_authenticated"
        /// The elements session does not enable Link's attested mobile endpoints (the SDK's
        /// `IntegrationError.missingAppAttestation`).
        case missingAppAttestation = "missing_app_attestation"
        /// The user has no crypto customer yet.
        case missingCryptoCustomerId = "missing_crypto_customer_id"
        /// The phone number is not E.164.
        case invalidPhoneFormat = "invalid_phone_format"
        /// A Link account already exists for this email.
        case linkAccountAlreadyExists = "link_account_already_exists"
        /// The Link account has not verified its phone.
        case linkAccountNotVerified = "link_account_not_verified"
        /// The seamless sign-in secret is invalid, expired or used; fall back to authorize.
        case seamlessSignInTokenInvalid = "seamless_sign_in_token_invalid"
        /// The one-time code was wrong too often.
        case verificationFailed = "verification_failed"
        /// The wallet address is not valid for the network.
        case invalidWalletAddress = "invalid_wallet_address"
        /// No payment method was selected before creating a payment token.
        case noPaymentMethodSelected = "no_payment_method_selected"
        /// The card was declined or authentication failed.
        case paymentDeclined = "payment_declined"
        /// The checkout did not complete (see ``apiCode`` / the session's `last_error`).
        case checkoutFailed = "checkout_failed"
        /// The server refused the request (see ``apiCode``).
        case apiError = "api_error"
        /// The network failed.
        case network
        /// The server answered something the SDK cannot read.
        case unexpectedResponse = "unexpected_response"
    }

    /// The stable category.
    public let code: Code
    /// The server's `error.code`, when the server refused the call.
    public let apiCode: String?
    /// A sentence for the end user.
    public let userMessage: String
    /// Details for the developer; never contains secrets.
    public let developerMessage: String

    /// Creates an error.
    public init(_ code: Code, apiCode: String? = nil, user: String? = nil, developer: String) {
        self.code = code
        self.apiCode = apiCode
        self.userMessage = user ?? Self.defaultUserMessage(code)
        self.developerMessage = developer
    }

    /// `code[/apiCode]: developerMessage`.
    public var description: String {
        "\(code.rawValue)\(apiCode.map { "/\($0)" } ?? ""): \(developerMessage)"
    }

    private static func defaultUserMessage(_ code: Code) -> String {
        switch code {
        case .invalidPhoneFormat: "Enter your phone number with its country code."
        case .linkAccountAlreadyExists: "An account already exists for this email. Sign in instead."
        case .verificationFailed: "That code didn't work. Request a new one and try again."
        case .invalidWalletAddress: "That wallet address isn't valid for the selected network."
        case .paymentDeclined: "Your payment was declined. Try another payment method."
        case .network: "The connection was lost. Check your connection and try again."
        case .seamlessSignInTokenInvalid: "Please sign in again."
        default: "Something went wrong. Please try again."
        }
    }
}

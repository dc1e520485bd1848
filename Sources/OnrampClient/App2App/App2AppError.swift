/// An App2App SDK failure. Compare on ``code``; show ``userMessage`` to the user and log
/// ``developerMessage`` (neither contains secrets).
public struct App2AppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable category.
    public enum Code: String, Sendable, Equatable {
        /// The device cannot make App Attest keys (Simulator, old hardware).
        case attestationUnsupported = "attestation_unsupported"
        /// The attest key is unknown to the device or the server; the SDK re-registers once.
        case invalidKey = "invalid_key"
        /// Registration was refused (wrong App ID, untrusted attestation).
        case registrationFailed = "registration_failed"
        /// The purchase fields were refused (address, currency, redirect host…).
        case invalidRequest = "invalid_request"
        /// The challenge expired before the session was created; start again.
        case staleChallenge = "stale_attestation"
        /// The project is not enabled for App2App.
        case forbidden
        /// Too many requests.
        case rateLimited = "rate_limit_exceeded"
        /// The network failed, also after the retry.
        case network
        /// The server answered something the SDK cannot read.
        case unexpectedResponse = "unexpected_response"
        /// A redirect URL that is not an onramp redirect.
        case invalidRedirect = "invalid_redirect"
        /// The settlement was not confirmed in time.
        case settlementTimeout = "settlement_timeout"
    }

    /// The stable category.
    public let code: Code
    /// A sentence for the end user.
    public let userMessage: String
    /// Details for the developer (server message, status).
    public let developerMessage: String

    /// Creates an error.
    public init(_ code: Code, user: String? = nil, developer: String) {
        self.code = code
        self.userMessage = user ?? Self.defaultUserMessage(code)
        self.developerMessage = developer
    }

    /// `code: developerMessage`.
    public var description: String { "\(code.rawValue): \(developerMessage)" }

    private static func defaultUserMessage(_ code: Code) -> String {
        switch code {
        case .attestationUnsupported: "This device can't buy crypto in the app. Try the web checkout."
        case .network: "The connection was lost. Check your connection and try again."
        case .rateLimited: "Too many attempts. Wait a moment and try again."
        case .staleChallenge: "The purchase took too long to start. Please try again."
        case .settlementTimeout: "Your purchase is still processing. We'll update your balance when it completes."
        default: "Something went wrong starting your purchase. Please try again."
        }
    }
}

/// Why a webhook delivery was refused. Compare on ``code``.
public struct WebhookVerificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable category of the failure.
    public enum Code: String, Sendable, Equatable {
        /// The signature header (or a header the CDP signature covers) is missing.
        case missingHeader
        /// The signature header could not be parsed (no `t`, no `v1`, bad hex…).
        case malformedHeader
        /// The timestamp is older (or further in the future) than the tolerance.
        case timestampOutsideTolerance
        /// No `v1` signature matches the payload and secret.
        case signatureMismatch
        /// The signature is valid but the payload is not the expected JSON event.
        case invalidPayload
    }

    /// The stable category.
    public let code: Code
    /// A developer-facing explanation; never contains the secret.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

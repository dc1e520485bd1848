/// An error raised by the onramp domain.
///
/// Compare errors on ``code`` (stable, machine-readable). ``userMessage`` is safe to show to an end
/// user; ``developerMessage`` explains the cause to an integrator. Neither message, nor ``description``,
/// ever contains a secret: callers pass only public values into them.
public struct OnrampError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable error code.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The code as sent on the wire, for example `invalid_amount`.
        public let rawValue: String

        /// Creates a code from its wire form.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The wire form of the code.
        public var description: String { rawValue }
    }

    /// The stable code of this error.
    public let code: Code
    /// A message that can be shown to the end user.
    public let userMessage: String
    /// A message for the integrator that explains the cause.
    public let developerMessage: String
    /// The request parameter the error refers to, when there is one.
    public let parameter: String?

    /// Creates an error.
    public init(code: Code, userMessage: String, developerMessage: String, parameter: String? = nil) {
        self.code = code
        self.userMessage = userMessage
        self.developerMessage = developerMessage
        self.parameter = parameter
    }

    /// The code and the developer message, never a secret.
    public var description: String {
        if let parameter {
            return "OnrampError(\(code.rawValue), parameter: \(parameter)): \(developerMessage)"
        }
        return "OnrampError(\(code.rawValue)): \(developerMessage)"
    }
}

/// An error raised by the onramp domain.
///
/// Compare errors on ``code`` (stable, machine-readable). ``userMessage`` is safe to show to an end
/// user; ``developerMessage`` explains the cause to an integrator. Neither message, nor ``description``,
/// ever contains a secret: callers pass only public values into them. ``kind`` says what sort of refusal
/// it is, so each API family's edge can choose its status without knowing every code.
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

    /// What sort of refusal an error is: the category an API edge turns into a status.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The request breaks a rule (the default): a field, an amount, a state the call is not allowed in.
        case invalid
        /// The object the request names does not exist, or is not the caller's.
        case notFound
        /// The caller may not do this (a mode, a setting or a permission forbids it).
        case forbidden
        /// The request conflicts with what already happened (a single-use answer already given).
        case conflict
        /// Too many attempts: the caller must wait before trying again.
        case tooManyAttempts
        /// The caller's credentials are not accepted.
        case unauthenticated
    }

    /// The stable code of this error.
    public let code: Code
    /// A message that can be shown to the end user.
    public let userMessage: String
    /// A message for the integrator that explains the cause.
    public let developerMessage: String
    /// The request parameter the error refers to, when there is one.
    public let parameter: String?
    /// What sort of refusal this is.
    public let kind: Kind

    /// Creates an error.
    public init(
        code: Code, userMessage: String, developerMessage: String, parameter: String? = nil, kind: Kind = .invalid
    ) {
        self.code = code
        self.kind = kind
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

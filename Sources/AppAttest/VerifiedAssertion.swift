/// The result of a successful assertion.
public struct VerifiedAssertion: Sendable {
    /// The new counter to store.
    public let counter: UInt32
    /// The parsed authenticator data (including iOS 27 extensions).
    public let authenticatorData: AuthenticatorData
}

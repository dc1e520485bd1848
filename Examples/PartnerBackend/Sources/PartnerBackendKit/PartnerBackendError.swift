/// A call from the partner backend to the onramp server failed.
public struct PartnerBackendError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status received.
    public let status: Int
    /// What failed and the server's answer.
    public let message: String

    /// Creates an error.
    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// `HTTP status: message`.
    public var description: String { "HTTP \(status): \(message)" }
}

import Foundation

/// A created purchase session.
public struct App2AppSession: Sendable, Equatable {
    /// Open exactly this URL; don't change its query. Single use, expires after 15 minutes.
    public let onrampURL: URL
    /// The purchase challenge the session is bound to.
    public let challenge: String
    /// The attest key that signed the assertion.
    public let keyId: String
}

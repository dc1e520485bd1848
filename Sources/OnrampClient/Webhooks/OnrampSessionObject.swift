/// The fields of an onramp session that matter to a webhook receiver.
public struct OnrampSessionObject: Decodable, Sendable, Equatable {
    /// The session id (`cos_…`).
    public let id: String
    /// The session status (`fulfillment_complete` when the crypto was delivered).
    public let status: String
    /// Whether the session is live.
    public let livemode: Bool?
}

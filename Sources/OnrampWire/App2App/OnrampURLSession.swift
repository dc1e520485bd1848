/// A session answered as a single-use URL and its quote: App2App's attested purchase session (the
/// handoff URL, always priced) and the hosted onramp's session (the hosted page, priced when the
/// request named an amount).
public struct OnrampURLSession: WireObject, Codable, Equatable {
    /// The session member.
    public struct Session: Codable, Equatable, Sendable {
        /// The single-use URL: open it exactly as returned.
        public var onrampUrl: String

        /// Creates the member.
        public init(onrampUrl: String) {
            self.onrampUrl = onrampUrl
        }

        /// What the member always holds.
        public static let schema = APISchema.object(["onrampUrl": .uri], required: ["onrampUrl"])
    }

    /// The URL.
    public var session: Session
    /// The quote, when the session is priced.
    public var quote: OnrampQuote?

    /// Creates a session object.
    public init(onrampUrl: String, quote: OnrampQuote?) {
        session = Session(onrampUrl: onrampUrl)
        self.quote = quote
    }

    /// The App2App form: the quote is always there.
    public static let schema = APISchema.object(
        ["session": Session.schema, "quote": OnrampQuote.schema], required: ["session", "quote"])

    /// The hosted onramp's form: the quote only when the session is priced (`quoteDescription` says when).
    public static func schemaWithOptionalQuote(_ quoteDescription: String) -> APISchema {
        .object(
            ["session": Session.schema, "quote": OnrampQuote.schema.described(quoteDescription)], required: ["session"])
    }
}

import HTTPServer
import OnrampServices
import OnrampWire

/// The consumer session a Link call names.
extension ConsumerSession {
    /// The session named by `credentials[consumer_session_client_secret]` in the body or query, or by the
    /// `Stripe-Consumer-Auth-Token` header the 2026 SDK sends with its GETs.
    static func require(
        _ request: HTTPRequest, body: JSONValue, caller: StripeCaller, context: ServerContext, verified: Bool = true
    ) throws -> ConsumerSession {
        let secret =
            body["credentials"]?["consumer_session_client_secret"]?.stringValue
            ?? request.queryValue("credentials[consumer_session_client_secret]")
            ?? request.headers["Stripe-Consumer-Auth-Token"]
        return try require(secret: secret, caller: caller, context: context, verified: verified)
    }
}

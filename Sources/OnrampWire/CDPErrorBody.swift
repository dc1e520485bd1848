/// The error object of Coinbase's CDP APIs (App2App, the hosted and Headless onramps, the offramp,
/// the transactions API, webhooks): `{errorType, errorMessage, correlationId, errorLink}`, the shape
/// cdp-sdk and the demo app read. `errorReason` adds a finer stable code where one exists — the App
/// Attest verifier's failure (`counter_not_increased`, `wrong_app_id`) under the seed's
/// `invalid_request` — so a client branches on a code, never on the message.
public struct CDPErrorBody: WireObject, Codable, Equatable {
    /// The documented class of the error (`invalid_request`, `stale_attestation`, `rate_limit_exceeded`, …).
    public var errorType: String
    /// A message for the developer.
    public var errorMessage: String
    /// The finer code, when there is one.
    public var errorReason: String?
    /// The request's id (also in the `Correlation-Id` header); optional when decoding other servers' bodies.
    public var correlationId: String?
    /// The documentation of `errorType`.
    public var errorLink: String?

    /// Creates a body.
    public init(
        errorType: String, errorMessage: String, errorReason: String? = nil, correlationId: String? = nil,
        errorLink: String? = nil
    ) {
        self.errorType = errorType
        self.errorMessage = errorMessage
        self.errorReason = errorReason
        self.correlationId = correlationId
        self.errorLink = errorLink
    }

    public static let schema = APISchema.object(
        [
            "errorType": .string, "errorMessage": .string,
            "errorReason": APISchema.string.described("A finer stable code, such as the App Attest failure."),
            "correlationId": .string, "errorLink": .uri,
        ], required: ["errorType", "errorMessage", "correlationId"])
}

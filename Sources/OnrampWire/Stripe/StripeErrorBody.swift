/// Stripe's error object, `{"error": {type, code, message, param, request_log_url}}`, as the stripe
/// clients and the StripeCryptoOnramp SDK read it.
public struct StripeErrorBody: WireObject, Codable, Equatable {
    /// The error itself.
    public struct Detail: Codable, Equatable, Sendable {
        /// `invalid_request_error`, `authentication_error`, `card_error`, `api_error`, …
        public var type: String
        /// A stable code (`parameter_missing`, `crypto_onramp_missing_document_verification`, …).
        public var code: String?
        /// A message for the developer.
        public var message: String
        /// The offending parameter.
        public var param: String?
        /// Where Stripe's dashboard shows the request.
        public var requestLogURL: String?

        enum CodingKeys: String, CodingKey {
            case type, code, message, param
            case requestLogURL = "request_log_url"
        }

        /// Creates the detail.
        public init(type: String, code: String?, message: String, param: String? = nil, requestLogURL: String? = nil) {
            self.type = type
            self.code = code
            self.message = message
            self.param = param
            self.requestLogURL = requestLogURL
        }
    }

    /// The error.
    public var error: Detail

    /// Creates a body.
    public init(_ error: Detail) {
        self.error = error
    }

    /// The `type` values this server answers.
    public static let types = [
        "api_error", "card_error", "idempotency_error", "invalid_request_error", "authentication_error",
        "rate_limit_error",
    ]

    public static let schema = APISchema.object(
        [
            "error": .object(
                [
                    "type": .enumeration(types), "code": .string, "message": .string, "param": .string,
                    "request_log_url": .uri,
                ], required: ["type", "message"])
        ], required: ["error"])
}

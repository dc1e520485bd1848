public import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// Coinbase CDP error shape: `{errorType, errorMessage, correlationId}` (App2App and CDP paths).
public struct CDPErrorRenderer: ErrorRenderer {
    /// The `errorType` values the CDP API documents; other codes are mapped by HTTP status.
    static let knownTypes: Set<String> = [
        "invalid_request", "unauthorized", "forbidden", "not_found", "stale_attestation", "rate_limit_exceeded",
        "service_unavailable", "internal_server_error", "already_exists", "idempotency_error",
        // The Headless Onramp's (openapi.yaml, /v2/onramp/orders, /limits, /verifications).
        "network_not_tradable", "guest_permission_denied", "guest_region_forbidden",
        "phone_number_verification_expired", "otp_verification_expired", "otp_verification_invalid",
        "otp_verification_required", "otp_verification_destination_mismatch", "otp_verification_not_found",
        "otp_verification_code_invalid", "guest_transaction_limit", "guest_transaction_count",
    ]

    /// Creates the renderer.
    public init() {}

    public func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
        let errorType = Self.errorType(for: error)
        let body = CDPErrorBody(
            errorType: errorType, errorMessage: error.message, errorReason: error.reason, correlationId: requestId,
            errorLink: "https://docs.cdp.coinbase.com/api-reference/v2/errors#\(errorType)")
        var response = HTTPResponse.json(body.json, status: error.status)
        response.headers.set("Correlation-Id", requestId)
        for (name, value) in error.headers { response.headers.set(name, value) }
        return response
    }

    /// A domain error of a CDP handler, as ``CDPErrors`` maps it.
    public func httpError(for error: any Error) -> HTTPError? {
        CDPErrors.httpError(for: error)
    }

    static func errorType(for error: HTTPError) -> String {
        if knownTypes.contains(error.code) { return error.code }
        switch error.status {
        case 401: return "unauthorized"
        case 403: return "forbidden"
        case 404: return "not_found"
        case 409: return "already_exists"
        case 429: return "rate_limit_exceeded"
        case 503: return "service_unavailable"
        case 500...: return "internal_server_error"
        default: return "invalid_request"
        }
    }
}

/// Stripe error shape: `{"error": {"type", "code", "message", "param", "request_log_url"}}` (`/v1/...` paths).
/// `request_log_url` is this sandbox's request log filtered to the request (Stripe's points at its dashboard).
public struct StripeErrorRenderer: ErrorRenderer {
    /// The server's base URL, which the request log's address starts with.
    public let publicBaseURL: String

    /// Creates the renderer for a server reached at `publicBaseURL`.
    public init(publicBaseURL: String) {
        self.publicBaseURL = publicBaseURL
    }

    public func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
        let body = StripeErrorBody(
            .init(
                type: Self.errorType(for: error), code: error.code, message: error.message, param: error.param,
                requestLogURL: "\(publicBaseURL)/console/requests/\(ConsolePage.segment(requestId))"))
        var response = HTTPResponse.json(body.json, status: error.status)
        for (name, value) in error.headers { response.headers.set(name, value) }
        return response
    }

    /// The Stripe family's domain errors as ``StripeErrors`` maps them.
    public func httpError(for error: any Error) -> HTTPError? {
        StripeErrors.httpError(for: error)
    }

    static func errorType(for error: HTTPError) -> String {
        if let type = error.type { return type }
        switch error.status {
        case 401: return "authentication_error"
        case 402: return "card_error"
        case 500...: return "api_error"
        default: return "invalid_request_error"
        }
    }
}

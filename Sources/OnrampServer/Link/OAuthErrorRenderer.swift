import HTTPServer
import OnrampCore
import OnrampServices

/// OAuth 2.0 error shape for `/auth/token`: `{"error": "invalid_grant", "error_description": "…"}`.
struct OAuthErrorRenderer: ErrorRenderer {
    /// A domain refusal as an OAuth error: its code (`invalid_grant`, `invalid_client`,
    /// `unsupported_grant_type`, …) and its kind's status.
    func httpError(for error: any Error) -> HTTPError? {
        guard let error = error as? OnrampError else { return nil }
        return HTTPError(status: error.status, code: error.code.rawValue, message: error.developerMessage)
    }

    func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
        var response = HTTPResponse.json(
            ["error": .string(error.code), "error_description": .string(error.message)], status: error.status)
        for (name, value) in error.headers { response.headers.set(name, value) }
        return response
    }
}

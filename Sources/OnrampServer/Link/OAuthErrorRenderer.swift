import HTTPServer

/// OAuth 2.0 error shape for `/auth/token`: `{"error": "invalid_grant", "error_description": "…"}`.
struct OAuthErrorRenderer: ErrorRenderer {
    /// An OAuth error (`invalid_grant`, `invalid_client`, `invalid_request`, `unsupported_grant_type`).
    static func error(_ code: String, _ message: String, status: Int = 400) -> HTTPError {
        HTTPError(status: status, code: code, message: message)
    }

    func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
        var response = HTTPResponse.json(
            ["error": .string(error.code), "error_description": .string(error.message)], status: error.status)
        for (name, value) in error.headers { response.headers.set(name, value) }
        return response
    }
}

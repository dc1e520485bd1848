import HTTPServer

/// What the console refuses, and the one place its refusals become HTTP (rendered as a page for a person,
/// as JSON on `/console/api`). Access refusals (``ConsoleAccess``) come first; the rest name what the
/// operator asked for.
enum ConsoleRefusal: Error, Equatable, HTTPErrorConvertible {
    /// 403 `console_remote`: the console answers loopback clients only.
    case remoteClient
    /// 401 `console_token_required`, saying how to present the operator token.
    case tokenRequired(String)
    /// 403 `console_cross_site`: a form posted from another site.
    case crossSite
    /// 403 `console_csrf`: a form without the console's CSRF value.
    case csrfMismatch
    /// 404 `not_found`: what the operator named does not exist.
    case notFound(String, param: String? = nil)
    /// 400 `invalid_request`: what the operator sent cannot be done as sent.
    case invalid(String, param: String? = nil)
    /// 409 `not_pending`: the object already finished, so it cannot be finished from the console.
    case notPending(String)

    /// The console's answer to the refusal.
    var httpError: HTTPError {
        switch self {
        case .remoteClient:
            HTTPError(status: 403, code: "console_remote", message: "The console answers loopback clients only.")
        case .tokenRequired(let message): HTTPError(status: 401, code: "console_token_required", message: message)
        case .crossSite: HTTPError(status: 403, code: "console_cross_site", message: "Cross-site requests are refused.")
        case .csrfMismatch:
            HTTPError(status: 403, code: "console_csrf", message: "The form's CSRF value is missing or wrong.")
        case .notFound(let message, let param):
            HTTPError(status: 404, code: "not_found", message: message, param: param)
        case .invalid(let message, let param):
            HTTPError(status: 400, code: "invalid_request", message: message, param: param)
        case .notPending(let message): HTTPError(status: 409, code: "not_pending", message: message)
        }
    }
}

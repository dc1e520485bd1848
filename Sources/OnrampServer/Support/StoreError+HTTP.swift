public import HTTPServer
import OnrampServices
public import OnrampStore

extension StoreError: HTTPErrorConvertible {
    /// Storage failures are the server's problem: 503 when retrying may help, 500 otherwise. The
    /// message never includes SQL or values.
    public var httpError: HTTPError {
        switch code {
        case .busy, .serializationFailure, .statementOutdated, .connectionFailed:
            return HTTPError(
                status: 503, code: "service_unavailable", message: "The service is busy; retry shortly.",
                headers: ["Retry-After": "1"])
        case .invalidText:
            return HTTPError(
                status: 400, code: "invalid_request", message: "Text parameters may not contain NUL characters.")
        default:
            return .internalError
        }
    }
}

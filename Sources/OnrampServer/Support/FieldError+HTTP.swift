public import HTTPServer
import OnrampServices

/// A decoder's refusal, rendered by each family as it renders its own 400s: the same status, code, message,
/// parameter and type.
extension FieldError: HTTPErrorConvertible {
    /// The error the family's renderer shapes.
    public var httpError: HTTPError {
        HTTPError(status: status, code: code, message: message, param: param, type: type, reason: reason)
    }
}

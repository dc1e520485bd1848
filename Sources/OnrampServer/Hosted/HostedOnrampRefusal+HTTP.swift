package import HTTPServer
import OnrampServices

/// The hosted onramp's refusals in the CDP shape.
extension HostedOnrampRefusal: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .invalid(let param, let message):
            HTTPError(status: 400, code: "invalid_request", message: message, param: param)
        case .unknownProject:
            HTTPError(status: 403, code: "forbidden", message: "The API key's project does not exist.")
        }
    }
}

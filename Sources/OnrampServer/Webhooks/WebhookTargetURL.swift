import Foundation
import HTTPServer

/// The rule for delivery targets: `https`, or `http` only to `127.0.0.1`, `localhost` or `[::1]`.
enum WebhookTargetURL {
    /// `text` when it is an acceptable target; a 400 naming `param` otherwise.
    static func validate(_ text: String, param: String, code: String) throws(HTTPError) -> String {
        guard text.utf8.count <= 2048, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else {
            throw HTTPError(status: 400, code: code, message: "\(param) must be an absolute URL.", param: param)
        }
        switch scheme {
        case "https":
            return text
        case "http" where ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host):
            return text
        default:
            throw HTTPError(
                status: 400, code: code,
                message: "\(param) must use https (http is allowed only for 127.0.0.1 and localhost).", param: param)
        }
    }
}

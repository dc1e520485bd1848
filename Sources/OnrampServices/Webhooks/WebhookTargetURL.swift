import Foundation

/// The rule for delivery targets: `https`, or `http` only to a loopback address or `localhost` (local
/// development, as the contract allows), never with credentials; a host written as an address (in any
/// spelling `inet_aton` reads) must be one ``WebhookTargetPolicy`` lets deliveries reach. A host name is
/// checked on every delivery, against each address it resolves to, before the connection is opened
/// (``WebhookHTTPClient``), so a name that resolves, or is re-pointed, to a refused address is refused too.
package enum WebhookTargetURL {
    /// `text` when it is an acceptable target under `policy`; a 400 naming `param` otherwise.
    package static func validate(_ text: String, param: String, code: String, policy: WebhookTargetPolicy)
        throws(FieldError)
        -> String
    {
        guard text.utf8.count <= 2048, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else {
            throw FieldError(status: 400, code: code, message: "\(param) must be an absolute URL.", param: param)
        }
        guard components.user == nil, components.password == nil else {
            throw FieldError(status: 400, code: code, message: "\(param) must not carry credentials.", param: param)
        }
        let local = WebhookTargetPolicy.isLocalName(host) || TargetAddress(literal: host)?.kind == .loopback
        guard scheme == "https" || (scheme == "http" && local) else {
            throw FieldError(
                status: 400, code: code,
                message: "\(param) must use https (http is allowed only for loopback and localhost).", param: param)
        }
        if let refusal = policy.refusal(host: host) {
            throw FieldError(status: 400, code: code, message: "\(param) points at \(refusal).", param: param)
        }
        return text
    }
}

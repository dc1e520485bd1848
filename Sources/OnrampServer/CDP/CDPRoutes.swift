import HTTPServer
import OnrampServices

/// Registers CDP-family routes that need a CDP API key JWT (`Authorization: Bearer`): the handler acts
/// for the key's project, in that project's time (its test clock). Errors take the CDP shape through
/// the router's renderer for the path.
struct CDPRoutes: Sendable {
    /// The handler of an API-key route: the request and the project the key belongs to.
    typealias Handler = @Sendable (HTTPRequest, _ projectId: String) throws -> HTTPResponse

    let authenticator: CDPAuthenticator

    /// A route that needs the API key JWT.
    func apiKey(_ router: inout Router, _ operation: APIOperation, _ handler: @escaping Handler) {
        let authenticator = self.authenticator
        router.add(operation) { request in
            try authenticator.acting(for: request) { projectId in try handler(request, projectId) }
        }
    }
}

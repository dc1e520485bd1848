import Foundation
import HTTPServer
import OnrampStore

/// Resolves a Stripe-style secret key (`Authorization: Bearer sk_…`, or HTTP Basic with the key as
/// user name, as Stripe's clients may send) to its project, for the webhook and event routes.
struct WebhookStripeAuth: Sendable {
    let database: any Database

    /// The project and livemode of the request's secret key, or a 401 in Stripe's shape.
    func authenticate(_ request: HTTPRequest) throws -> (projectId: String, livemode: Bool) {
        guard let authorization = request.headers["Authorization"] else {
            throw Self.unauthorized("You did not provide an API key. Send Authorization: Bearer sk_….")
        }
        var key = ""
        if authorization.hasPrefix("Bearer ") {
            key = String(authorization.dropFirst("Bearer ".count))
        } else if authorization.hasPrefix("Basic "),
            let decoded = Base64Basic.decode(String(authorization.dropFirst("Basic ".count)))
        {
            key = String(decoded.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        }
        guard key.hasPrefix("sk_"), key.utf8.count <= 200,
            let record = try database.read({ try APIKeyRepository(connection: $0).find(secret: key) }),
            record.kind == .stripeSecret, !record.disabled
        else {
            throw Self.unauthorized("Invalid API Key provided.")
        }
        return (record.projectId, record.livemode)
    }

    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(status: 401, code: "api_key_invalid", message: message, type: "invalid_request_error")
    }
}

/// Decodes the base64 of an HTTP Basic credential.
private enum Base64Basic {
    static func decode(_ text: String) -> String? {
        guard let data = Foundation.Data(base64Encoded: text) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}

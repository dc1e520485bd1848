import HTTPServer
import OnrampCore
import OnrampServices

/// The `Stripe-OAuth-Token` header of a request.
extension OAuthTokens {
    /// The request's `Stripe-OAuth-Token` when it has the form of an access token.
    static func wellFormedToken(_ request: HTTPRequest) -> String? {
        wellFormedToken(header: request.headers["Stripe-OAuth-Token"])
    }

    /// The grant of the request's `Stripe-OAuth-Token`, which must be live and carry `scope`.
    func require(_ request: HTTPRequest, caller: StripeCaller, scope: OAuthScope) throws -> Grant {
        try require(header: request.headers["Stripe-OAuth-Token"], caller: caller, scope: scope)
    }
}

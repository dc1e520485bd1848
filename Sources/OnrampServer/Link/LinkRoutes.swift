import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The partner-backend Link routes (secret key): create a LinkAuthIntent, fetch its tokens once
/// consented, refresh with rotation at `/auth/token`, and exchange a seamless sign-in token for a
/// `link_auth_token_client_secret`.
struct LinkRoutes: Sendable {
    let routes: StripeRoutes
    let intents: LinkAuthIntentService
    var context: ServerContext { routes.context }

    init(routes: StripeRoutes) {
        self.routes = routes
        intents = LinkAuthIntentService(context: routes.context)
    }

    func createLinkAuthIntent(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try intents.create(LinkAuthIntentRequest(body), caller: caller).json
    }

    func createLinkAuthIntentTokens(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue
    {
        try intents.issueTokens(intentId: request.pathParameters["id"] ?? "", caller: caller).json
    }

    func createLinkAuthTokenClientSecret(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        let token = try RequestFields.stripe(body).required("link_auth_token", maxLength: 128)
        let (secret, expiresAt) = try intents.intents.clientSecret(
            forLinkAuthToken: token, projectId: caller.projectId)
        return [
            "link_auth_token_client_secret": .string(secret), "expires_at": .integer(expiresAt / 1000),
        ]
    }

    func refreshLinkOAuthToken(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try StripeCaller.authenticate(request, context: context, allowPublishable: false)
        RequestNotes.current?.projectId = caller.projectId
        // Tokens expire in the project's time, as the Stripe routes that check them see it.
        return try TestClocks.bound(offsetMilliseconds: caller.clockOffsetMilliseconds) {
            .json(try refresh(request, caller: caller))
        }
    }

    func refresh(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        let pair = try intents.refresh(TokenRefresh(try request.formBody()), caller: caller)
        return [
            "access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken),
            "token_type": "Bearer", "expires_in": .integer(OAuthTokens.accessLifetime),
            "scope": .string(OAuthScope.storage(pair.scopes)),
        ]
    }
}

import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// The partner-backend Link routes (secret key): create a LinkAuthIntent, fetch its tokens once
/// consented, refresh with rotation at `/auth/token`, and exchange a seamless sign-in token for a
/// `link_auth_token_client_secret`.
struct LinkRoutes: Sendable {
    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        let context = self.context
        routes.server(&router, "POST", "/v1/link_auth_intent", Operations.createLinkAuthIntent) { _, caller, body in
            try createIntent(caller: caller, body: body)
        }
        routes.server(&router, "POST", "/v1/link_auth_intent/{id}/tokens", Operations.createLinkAuthIntentTokens) {
            request, caller, _ in
            try tokens(intentId: request.pathParameters["id"] ?? "", caller: caller)
        }
        routes.server(
            &router, "POST", "/v1/link_auth_tokens/client_secret", Operations.createLinkAuthTokenClientSecret
        ) { _, caller, body in
            let token = try StripeErrors.fields(body).required("link_auth_token", maxLength: 128)
            let (secret, expiresAt) = try LinkAuthIntents(context: context).clientSecret(
                forLinkAuthToken: token, projectId: caller.projectId)
            return [
                "link_auth_token_client_secret": .string(secret), "expires_at": .integer(expiresAt / 1000),
            ]
        }
        router.add("POST", "/auth/token", Operations.refreshLinkOAuthToken) { request in
            let caller = try StripeCaller.authenticate(request, database: context.database, allowPublishable: false)
            RequestNotes.current?.projectId = caller.projectId
            // Tokens expire in the project's time, as the Stripe routes that check them see it.
            return try context.testClocks.bound(to: caller.livemode ? nil : caller.projectId) {
                .json(try refresh(request, caller: caller))
            }
        }
    }

    func createIntent(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let clientId = try fields.required("oauth_client_id", maxLength: 64)
        if case .array = body["oauth_scopes"] {
            throw fields.invalid("oauth_scopes", "oauth_scopes is a comma-separated string, not an array.")
        }
        let named = try fields.required("oauth_scopes", maxLength: 512).split(separator: ",").map {
            OAuthScope(rawValue: String($0.trimmingCharacters(in: .whitespaces)))
        }
        let scopes = named.compactMap { $0 }
        guard !scopes.isEmpty, scopes.count == named.count else {
            throw StripeErrors.invalid(
                "invalid_scope",
                "oauth_scopes may contain \(OAuthScope.allCases.map(\.rawValue).sorted().joined(separator: ", ")).",
                param: "oauth_scopes")
        }
        let email = try fields.optional("email", maxLength: 800)?.lowercased()
        let hashedEmail = try fields.optional("hashed_email", maxLength: 64)?.lowercased()
        guard email != nil || hashedEmail != nil else {
            throw StripeErrors.invalid("parameter_missing", "Send email or hashed_email.", param: "email")
        }
        let now = context.nowMilliseconds
        let id = context.ids.id(prefix: IdPrefix.linkAuthIntent)
        return try context.database.transaction { connection in
            guard
                let client = try APIKeyRepository(connection: connection).find(id: clientId),
                client.kind == .oauthClient, client.projectId == caller.projectId, !client.disabled
            else {
                throw StripeErrors.invalid(
                    "link_oauth_not_enabled", "This OAuth client is not enabled for Log in with Link.",
                    param: "oauth_client_id", status: 403)
            }
            let consumers = LinkConsumerRepository(connection: connection)
            guard
                let consumerId = try email.map({ try consumers.id(email: $0, projectId: caller.projectId) })
                    ?? consumers.id(emailHash: hashedEmail ?? "", projectId: caller.projectId)
            else {
                throw StripeErrors.invalid(
                    "link_consumer_not_found", "No Link customer has this email.", param: "email", status: 404)
            }
            let expiresAt = try LinkAuthIntents(context: context).insert(
                connection, id: id, projectId: caller.projectId, consumerId: consumerId, clientId: clientId,
                scopes: scopes, now: now)
            return [
                "id": .string(id), "object": "link_auth_intent", "status": "created",
                "expires_at": .integer(expiresAt / 1000),
            ]
        }
    }

    func tokens(intentId: String, caller: StripeCaller) throws -> JSONValue {
        let now = context.nowMilliseconds
        let (pair, linkAuthToken) = try context.database.transaction { connection -> (OAuthTokens.Pair, String?) in
            guard
                let intent = try LinkAuthIntents(context: context).current(
                    connection, id: intentId, projectId: caller.projectId, now: now)
            else { throw StripeErrors.missing("link_auth_intent") }
            guard intent.status == .consented else {
                throw StripeErrors.invalid(
                    "link_auth_intent_not_consented",
                    "The LinkAuthIntent is \(intent.status.rawValue); tokens are issued after consent.", status: 403)
            }
            // One token family per consent: the secrets are shown once (a retry that must see them again
            // sends the same Idempotency-Key and gets the sealed answer replayed).
            guard try LinkAuthIntents(context: context).markTokensIssued(connection, id: intentId, now: now) else {
                throw StripeErrors.invalid(
                    "link_auth_intent_tokens_issued",
                    "The tokens of this LinkAuthIntent were already issued, and are shown once. Create a new LinkAuthIntent, or retry with the first request's Idempotency-Key.",
                    status: 409)
            }
            let pair = try OAuthTokens(context: context).issue(
                connection, familyId: context.ids.id(prefix: IdPrefix.oauthTokenFamily), projectId: caller.projectId,
                consumerId: intent.consumerId, clientId: intent.clientId, scopes: intent.scopes)
            // The seamless sign-in token reaches the partner here, with the OAuth tokens: the SDK's
            // authorize result carries only the customer id.
            let linkAuthToken =
                intent.scopes.contains(.persistLogin)
                ? try LinkAuthIntents(context: context).issueLinkAuthToken(
                    connection, projectId: caller.projectId, consumerId: intent.consumerId) : nil
            return (pair, linkAuthToken)
        }
        var members: [(String, JSONValue)] = [
            ("access_token", .string(pair.accessToken)), ("token_type", "Bearer"),
            ("expires_in", .integer(OAuthTokens.accessLifetime)),
            ("scope", .string(pair.scopes.map(\.rawValue).joined(separator: " "))),
            (
                "refresh",
                [
                    "refresh_token": .string(pair.refreshToken), "expires_in": .integer(OAuthTokens.refreshLifetime),
                ]
            ),
        ]
        if let linkAuthToken { members.append(("link_auth_token", .string(linkAuthToken))) }
        return .object(members)
    }

    func refresh(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        let fields = RequestFields(
            try request.formBody(), invalidCode: "invalid_request", missingCode: "invalid_request")
        guard try fields.required("grant_type", maxLength: 32) == "refresh_token" else {
            throw OAuthErrorRenderer.error("unsupported_grant_type", "grant_type must be refresh_token.")
        }
        let refreshToken = try fields.required("refresh_token", maxLength: 128)
        let clientId = try fields.required("client_id", maxLength: 64)
        let clientSecret = try fields.required("client_secret", maxLength: 128)
        let client = try context.database.read { try APIKeyRepository(connection: $0).find(secret: clientSecret) }
        guard let client, client.id == clientId, client.kind == .oauthClient, client.projectId == caller.projectId,
            !client.disabled
        else {
            throw OAuthErrorRenderer.error("invalid_client", "Unknown client_id or wrong client_secret.", status: 401)
        }
        let pair = try OAuthTokens(context: context).rotate(
            refreshToken: refreshToken, projectId: caller.projectId, clientId: clientId)
        return [
            "access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken),
            "token_type": "Bearer", "expires_in": .integer(OAuthTokens.accessLifetime),
            "scope": .string(OAuthScope.storage(pair.scopes)),
        ]
    }
}

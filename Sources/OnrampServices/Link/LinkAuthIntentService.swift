import OnrampCore
import OnrampStore
import OnrampWire

/// The partner backend's side of Log in with Link: it creates a LinkAuthIntent for a consumer, and once
/// the consumer consented (``ConsumerService``) fetches the OAuth tokens, once, and refreshes them.
package struct LinkAuthIntentService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let intents: LinkAuthIntents
    package let tokens: OAuthTokens

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        intents = LinkAuthIntents(context: context)
        tokens = OAuthTokens(context: context)
    }

    /// A created intent: its id and when it expires (stored milliseconds).
    package struct Created: Sendable, Equatable {
        package let id: String
        package let expiresAt: Int64

        /// `{id, object: link_auth_intent, status: created, expires_at}`.
        package var json: JSONValue {
            [
                "id": .string(id), "object": "link_auth_intent", "status": "created",
                "expires_at": .integer(expiresAt / 1000),
            ]
        }
    }

    /// The tokens of a consented intent, shown once; with the `auth.persist_login` scope also the
    /// seamless sign-in token (the SDK's authorize result carries only the customer id).
    package struct IssuedTokens: Sendable {
        package let pair: OAuthTokens.Pair
        package let linkAuthToken: String?

        /// The access token, its lifetime and scope, the refresh token, and `link_auth_token` when issued.
        package var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("access_token", .string(pair.accessToken)), ("token_type", "Bearer"),
                ("expires_in", .integer(OAuthTokens.accessLifetime)),
                ("scope", .string(pair.scopes.map(\.rawValue).joined(separator: " "))),
                (
                    "refresh",
                    [
                        "refresh_token": .string(pair.refreshToken),
                        "expires_in": .integer(OAuthTokens.refreshLifetime),
                    ]
                ),
            ]
            if let linkAuthToken { members.append(("link_auth_token", .string(linkAuthToken))) }
            return .object(members)
        }
    }

    /// Creates an intent for `request`'s consumer, asked by the project's enabled OAuth client.
    package func create(_ request: LinkAuthIntentRequest, caller: StripeCaller) throws -> Created {
        let now = Timestamp.milliseconds(clock.now())
        let id = ids.id(prefix: IdPrefix.linkAuthIntent)
        return try database.transaction { connection in
            guard
                let client = try APIKeyRepository(connection: connection).find(id: request.clientId),
                client.kind == .oauthClient, client.projectId == caller.projectId, !client.disabled
            else {
                throw OnrampError.refusal(
                    "link_oauth_not_enabled", "This OAuth client is not enabled for Log in with Link.",
                    parameter: "oauth_client_id", kind: .forbidden)
            }
            let consumers = LinkConsumerRepository(connection: connection)
            guard
                let consumerId = try request.email.map({ try consumers.id(email: $0, projectId: caller.projectId) })
                    ?? consumers.id(emailHash: request.hashedEmail ?? "", projectId: caller.projectId)
            else {
                throw OnrampError.refusal(
                    "link_consumer_not_found", "No Link customer has this email.", parameter: "email", kind: .notFound)
            }
            let expiresAt = try intents.insert(
                connection, id: id, projectId: caller.projectId, consumerId: consumerId, clientId: request.clientId,
                scopes: request.scopes, now: now)
            return Created(id: id, expiresAt: expiresAt)
        }
    }

    /// Issues the tokens of the consented intent `intentId`: one token family per consent, shown once
    /// (a retry that must see them again sends the same Idempotency-Key and gets the sealed answer).
    package func issueTokens(intentId: String, caller: StripeCaller) throws -> IssuedTokens {
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            guard let intent = try intents.current(connection, id: intentId, projectId: caller.projectId, now: now)
            else { throw OnrampError.missing("link_auth_intent") }
            guard intent.status == .consented else {
                throw OnrampError.refusal(
                    "link_auth_intent_not_consented",
                    "The LinkAuthIntent is \(intent.status.rawValue); tokens are issued after consent.",
                    kind: .forbidden)
            }
            guard try intents.markTokensIssued(connection, id: intentId, now: now) else {
                throw OnrampError.refusal(
                    "link_auth_intent_tokens_issued",
                    "The tokens of this LinkAuthIntent were already issued, and are shown once. Create a new LinkAuthIntent, or retry with the first request's Idempotency-Key.",
                    kind: .conflict)
            }
            let pair = try tokens.issue(
                connection, familyId: ids.id(prefix: IdPrefix.oauthTokenFamily), projectId: caller.projectId,
                consumerId: intent.consumerId, clientId: intent.clientId, scopes: intent.scopes)
            let linkAuthToken =
                intent.scopes.contains(.persistLogin)
                ? try intents.issueLinkAuthToken(connection, projectId: caller.projectId, consumerId: intent.consumerId)
                : nil
            return IssuedTokens(pair: pair, linkAuthToken: linkAuthToken)
        }
    }

    /// Rotates the refresh token for the OAuth client the credentials name (one of the caller's project,
    /// enabled): a new access and refresh token pair.
    package func refresh(_ refresh: TokenRefresh, caller: StripeCaller) throws -> OAuthTokens.Pair {
        let client = try database.read { try APIKeyRepository(connection: $0).find(secret: refresh.clientSecret) }
        guard let client, client.id == refresh.clientId, client.kind == .oauthClient,
            client.projectId == caller.projectId, !client.disabled
        else {
            throw OnrampError.refusal(
                "invalid_client", "Unknown client_id or wrong client_secret.", kind: .unauthenticated)
        }
        return try tokens.rotate(
            refreshToken: refresh.refreshToken, projectId: caller.projectId, clientId: refresh.clientId)
    }
}

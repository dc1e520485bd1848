import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// `POST /v1/link_auth_intent` as the service takes it: the partner's OAuth client, the scopes it asks
/// for, and the consumer by email or by the email's hash. Decoded at the edge; no I/O.
struct LinkAuthIntentRequest: Sendable, Equatable {
    let clientId: String
    let scopes: [OAuthScope]
    /// Lower-cased.
    let email: String?
    /// Lower-cased hex.
    let hashedEmail: String?

    /// Decodes `body`.
    init(_ body: JSONValue) throws {
        let fields = StripeErrors.fields(body)
        clientId = try fields.required("oauth_client_id", maxLength: 64)
        if case .array = body["oauth_scopes"] {
            throw fields.invalid("oauth_scopes", "oauth_scopes is a comma-separated string, not an array.")
        }
        let named = try fields.required("oauth_scopes", maxLength: 512).split(separator: ",").map {
            OAuthScope(rawValue: String($0.trimmingCharacters(in: .whitespaces)))
        }
        scopes = named.compactMap { $0 }
        guard !scopes.isEmpty, scopes.count == named.count else {
            throw StripeErrors.invalid(
                "invalid_scope",
                "oauth_scopes may contain \(OAuthScope.allCases.map(\.rawValue).sorted().joined(separator: ", ")).",
                param: "oauth_scopes")
        }
        email = try fields.optional("email", maxLength: 800)?.lowercased()
        hashedEmail = try fields.optional("hashed_email", maxLength: 64)?.lowercased()
        guard email != nil || hashedEmail != nil else {
            throw StripeErrors.invalid("parameter_missing", "Send email or hashed_email.", param: "email")
        }
    }
}

/// `POST /auth/token` as the service takes it (OAuth 2.0 refresh, RFC 6749 §6): the refresh token and
/// the partner's OAuth client credentials. Decoded at the edge; no I/O.
struct TokenRefresh: Sendable {
    let refreshToken: String
    let clientId: String
    let clientSecret: String

    /// Decodes the form; anything but `grant_type=refresh_token` is `unsupported_grant_type`.
    init(_ form: JSONValue) throws {
        let fields = RequestFields(form, invalidCode: "invalid_request", missingCode: "invalid_request")
        guard try fields.required("grant_type", maxLength: 32) == "refresh_token" else {
            throw OAuthErrorRenderer.error("unsupported_grant_type", "grant_type must be refresh_token.")
        }
        refreshToken = try fields.required("refresh_token", maxLength: 128)
        clientId = try fields.required("client_id", maxLength: 64)
        clientSecret = try fields.required("client_secret", maxLength: 128)
    }
}

/// The partner backend's side of Log in with Link: it creates a LinkAuthIntent for a consumer, and once
/// the consumer consented (``ConsumerService``) fetches the OAuth tokens, once, and refreshes them.
struct LinkAuthIntentService: Sendable {
    let database: any Database
    /// The project's time (its test clock, when the request is bound to one).
    let clock: any OnrampCore.Clock
    let ids: IdGenerator
    let intents: LinkAuthIntents
    let tokens: OAuthTokens

    /// The service on the parts of `context` it uses.
    init(context: ServerContext) {
        database = context.database
        clock = context.clock
        ids = context.ids
        intents = LinkAuthIntents(context: context)
        tokens = OAuthTokens(context: context)
    }

    /// A created intent: its id and when it expires (stored milliseconds).
    struct Created: Sendable, Equatable {
        let id: String
        let expiresAt: Int64

        /// `{id, object: link_auth_intent, status: created, expires_at}`.
        var json: JSONValue {
            [
                "id": .string(id), "object": "link_auth_intent", "status": "created",
                "expires_at": .integer(expiresAt / 1000),
            ]
        }
    }

    /// The tokens of a consented intent, shown once; with the `auth.persist_login` scope also the
    /// seamless sign-in token (the SDK's authorize result carries only the customer id).
    struct IssuedTokens: Sendable {
        let pair: OAuthTokens.Pair
        let linkAuthToken: String?

        /// The access token, its lifetime and scope, the refresh token, and `link_auth_token` when issued.
        var json: JSONValue {
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
    func create(_ request: LinkAuthIntentRequest, caller: StripeCaller) throws -> Created {
        let now = Timestamp.milliseconds(clock.now())
        let id = ids.id(prefix: IdPrefix.linkAuthIntent)
        return try database.transaction { connection in
            guard
                let client = try APIKeyRepository(connection: connection).find(id: request.clientId),
                client.kind == .oauthClient, client.projectId == caller.projectId, !client.disabled
            else {
                throw StripeErrors.invalid(
                    "link_oauth_not_enabled", "This OAuth client is not enabled for Log in with Link.",
                    param: "oauth_client_id", status: 403)
            }
            let consumers = LinkConsumerRepository(connection: connection)
            guard
                let consumerId = try request.email.map({ try consumers.id(email: $0, projectId: caller.projectId) })
                    ?? consumers.id(emailHash: request.hashedEmail ?? "", projectId: caller.projectId)
            else {
                throw StripeErrors.invalid(
                    "link_consumer_not_found", "No Link customer has this email.", param: "email", status: 404)
            }
            let expiresAt = try intents.insert(
                connection, id: id, projectId: caller.projectId, consumerId: consumerId, clientId: request.clientId,
                scopes: request.scopes, now: now)
            return Created(id: id, expiresAt: expiresAt)
        }
    }

    /// Issues the tokens of the consented intent `intentId`: one token family per consent, shown once
    /// (a retry that must see them again sends the same Idempotency-Key and gets the sealed answer).
    func issueTokens(intentId: String, caller: StripeCaller) throws -> IssuedTokens {
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            guard let intent = try intents.current(connection, id: intentId, projectId: caller.projectId, now: now)
            else { throw StripeErrors.missing("link_auth_intent") }
            guard intent.status == .consented else {
                throw StripeErrors.invalid(
                    "link_auth_intent_not_consented",
                    "The LinkAuthIntent is \(intent.status.rawValue); tokens are issued after consent.", status: 403)
            }
            guard try intents.markTokensIssued(connection, id: intentId, now: now) else {
                throw StripeErrors.invalid(
                    "link_auth_intent_tokens_issued",
                    "The tokens of this LinkAuthIntent were already issued, and are shown once. Create a new LinkAuthIntent, or retry with the first request's Idempotency-Key.",
                    status: 409)
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
    func refresh(_ refresh: TokenRefresh, caller: StripeCaller) throws -> OAuthTokens.Pair {
        let client = try database.read { try APIKeyRepository(connection: $0).find(secret: refresh.clientSecret) }
        guard let client, client.id == refresh.clientId, client.kind == .oauthClient,
            client.projectId == caller.projectId, !client.disabled
        else {
            throw OAuthErrorRenderer.error("invalid_client", "Unknown client_id or wrong client_secret.", status: 401)
        }
        return try tokens.rotate(
            refreshToken: refresh.refreshToken, projectId: caller.projectId, clientId: refresh.clientId)
    }
}

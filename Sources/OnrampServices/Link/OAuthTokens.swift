import OnrampCore
import OnrampStore

/// Link OAuth tokens: `liwltoken_…` access tokens (3600 s) and `liwlrefresh_…` refresh tokens
/// (90 days), stored only as hashes. Refresh tokens rotate: each is used once, and presenting a used
/// one revokes its whole family (every token descended from the same consent) — unless it was used
/// less than ``concurrentRotationSeconds`` ago: that is a concurrent refresh (two tabs, a retry), which
/// is refused without revoking what the winner was just given.
package struct OAuthTokens: Sendable, UsesServiceEnvironment {
    /// Access token lifetime in seconds.
    package static let accessLifetime: Int64 = 3600
    /// Refresh token lifetime in seconds (90 days).
    package static let refreshLifetime: Int64 = 7_776_000
    /// How long after a refresh token's rotation presenting it again counts as a concurrent refresh
    /// (refused, nothing revoked) rather than a replay (the family revoked).
    package static let concurrentRotationSeconds: Int64 = 5

    /// A freshly issued pair; the secrets exist only in this value and the response.
    package struct Pair {
        package let accessToken: String
        package let refreshToken: String
        package let scopes: [OAuthScope]
    }

    /// A valid access token's grant.
    package struct Grant {
        package let projectId: String
        package let consumerId: String
    }

    package let environment: ServiceEnvironment
    /// Emptied when a family is revoked, so its access tokens stop working at once.
    package let callers: CallerCache

    /// The tokens on the parts of `context` they use.
    package init(context: ServerContext) {
        environment = context.environment
        callers = context.callers
    }

    /// Issues an access and refresh token in `familyId` (a new family per consent).
    package func issue(
        _ connection: any SQLConnection, familyId: String, projectId: String, consumerId: String, clientId: String,
        scopes: [OAuthScope]
    ) throws -> Pair {
        let now = nowMilliseconds
        let access = "liwltoken_" + ids.base62(length: 40)
        let refresh = "liwlrefresh_" + ids.base62(length: 40)
        let tokens = OAuthTokenRepository(connection: connection)
        for (token, kind, lifetime) in [
            (access, OAuthTokenRepository.Kind.access, Self.accessLifetime),
            (refresh, .refresh, Self.refreshLifetime),
        ] {
            try tokens.insert(
                hash: APIKeyRepository.secretHash(token), kind: kind, familyId: familyId, projectId: projectId,
                consumerId: consumerId, clientId: clientId, scopes: scopes, expiresAt: now + lifetime * 1000, now: now)
        }
        return Pair(accessToken: access, refreshToken: refresh, scopes: scopes)
    }

    /// Rotates `refreshToken`: marks it used and issues a new pair in the same family. A used, revoked
    /// or expired token fails with `invalid_grant`; a reused one also revokes its family.
    package func rotate(refreshToken: String, projectId: String, clientId: String) throws -> Pair {
        let hash = APIKeyRepository.secretHash(refreshToken)
        let now = nowMilliseconds
        enum Outcome { case rotated(Pair), reused, concurrent, invalid }
        let outcome: Outcome = try database.transaction { connection in
            let tokens = OAuthTokenRepository(connection: connection)
            guard let token = try tokens.find(hash: hash, kind: .refresh), token.projectId == projectId,
                token.clientId == clientId
            else { return .invalid }
            if let usedAt = token.usedAt {
                if now - usedAt < Self.concurrentRotationSeconds * 1000 { return .concurrent }
                try tokens.revokeFamily(token.familyId)
                return .reused
            }
            guard !token.revoked, token.expiresAt > now else { return .invalid }
            // The winner of a concurrent refresh marks it used; the loser's update finds it used.
            guard try tokens.markUsed(hash: hash, now: now) else { return .concurrent }
            return .rotated(
                try issue(
                    connection, familyId: token.familyId, projectId: projectId, consumerId: token.consumerId,
                    clientId: clientId, scopes: token.scopes))
        }
        switch outcome {
        case .rotated(let pair): return pair
        case .reused:
            callers.invalidate()
            throw OnrampError.refusal(
                "invalid_grant", "The refresh token was already used; every token of this grant is now revoked.")
        case .concurrent:
            throw OnrampError.refusal(
                "invalid_grant",
                "The refresh token was just rotated by a concurrent request; use the tokens that request received.")
        case .invalid:
            throw OnrampError.refusal("invalid_grant", "The refresh token is invalid, expired or revoked.")
        }
    }

    /// A `Stripe-OAuth-Token` header's value when it has the form of an access token.
    package static func wellFormedToken(header: String?) -> String? {
        guard let token = header, token.hasPrefix("liwltoken_"), token.utf8.count <= 128 else { return nil }
        return token
    }

    /// The grant of a `Stripe-OAuth-Token` header's value, which must be live and carry `scope`. The token's
    /// record is the one the caller's authentication read with the API key, when it did.
    package func require(header: String?, caller: StripeCaller, scope: OAuthScope) throws -> Grant {
        guard let token = Self.wellFormedToken(header: header) else {
            throw OnrampError.refusal(
                "oauth_token_missing", "This call acts for a Link user: send their access token in Stripe-OAuth-Token.",
                kind: .unauthenticated)
        }
        let stored: OAuthTokenRepository.Record?
        if let presented = caller.presentedOAuthToken, presented.token == token {
            stored = presented.record
        } else {
            stored = try database.read { connection in
                try OAuthTokenRepository(connection: connection).find(
                    hash: APIKeyRepository.secretHash(token), kind: .access)
            }
        }
        guard let stored, stored.projectId == caller.projectId, !stored.revoked, stored.expiresAt > nowMilliseconds
        else {
            throw OnrampError.refusal(
                "oauth_token_invalid", "The Stripe-OAuth-Token is invalid, expired or revoked.", kind: .unauthenticated)
        }
        guard stored.scopes.contains(scope) else {
            throw OnrampError.refusal(
                "oauth_scope_missing", "The access token lacks the scope \(scope.rawValue).", kind: .forbidden)
        }
        return Grant(projectId: caller.projectId, consumerId: stored.consumerId)
    }
}

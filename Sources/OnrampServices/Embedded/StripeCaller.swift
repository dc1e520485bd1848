import OnrampCrypto
import OnrampStore
import OnrampWire

/// Who is calling a Stripe-style route: the project and mode of the API key.
package struct StripeCaller: Sendable {
    /// The project the key belongs to.
    package let projectId: String
    /// Whether the key is a live key (`sk_live_…`, `pk_live_…`).
    package let livemode: Bool
    /// The publishable key the caller presented (`pk_…`, public: client-side calls); `nil` for a secret key.
    package var publishableKey: String?
    /// Whether the caller used a publishable key.
    package var publishable: Bool { publishableKey != nil }
    /// The stored access token of the request's `Stripe-OAuth-Token`, read with the API key (one read
    /// for both); `nil` when the request sent none that could be one. ``OAuthTokens`` decides on it.
    package var presentedOAuthToken: OAuthTokenLookup?
    /// The project's test-clock offset in milliseconds, read with the key (0 for a live key: live mode
    /// keeps real time). The caller's request runs in that time (``TestClocks/bound(offsetMilliseconds:_:)``).
    package var clockOffsetMilliseconds: Int64 = 0
    /// The crypto customer a link session key (`lsk_…`) acts for, when the caller presented one: such a
    /// caller acts for that customer alone, on the routes that take the key.
    package var linkSessionCustomer: CryptoCustomer?

    /// A caller of `projectId` in `livemode`, with what its authentication read alongside.
    package init(
        projectId: String, livemode: Bool, publishableKey: String? = nil, presentedOAuthToken: OAuthTokenLookup? = nil,
        clockOffsetMilliseconds: Int64 = 0, linkSessionCustomer: CryptoCustomer? = nil
    ) {
        self.projectId = projectId
        self.livemode = livemode
        self.publishableKey = publishableKey
        self.presentedOAuthToken = presentedOAuthToken
        self.clockOffsetMilliseconds = clockOffsetMilliseconds
        self.linkSessionCustomer = linkSessionCustomer
    }

    /// The access token a request presented, as the store had it when the API key was read.
    package struct OAuthTokenLookup: Sendable {
        /// The token's text, as sent.
        package let token: String
        /// Its stored record; `nil` when no access token has that secret.
        package let record: OAuthTokenRepository.Record?

        /// The token `token` and its stored record, if any.
        package init(token: String, record: OAuthTokenRepository.Record?) {
            self.token = token
            self.record = record
        }
    }

    /// The publishable key the client SDK should use for this caller's project and mode: the one it
    /// presented, else the project's (publishable keys are public, so they are kept in clear as well).
    package func clientPublishableKey(_ connection: any SQLConnection) throws -> String? {
        if let publishableKey { return publishableKey }
        return try APIKeyRepository(connection: connection).publishableKey(projectId: projectId, livemode: livemode)
    }
}

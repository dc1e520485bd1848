/// The OAuth scopes a partner asks a Link consumer for (a LinkAuthIntent's `oauth_scopes`), with the
/// contract's spelling as the raw value.
public enum OAuthScope: String, Sendable, Hashable, CaseIterable {
    /// See whether the consumer's identity is verified (the crypto customer and its KYC tiers).
    case kycStatusRead = "kyc.status:read"
    /// Buy crypto with the consumer's Link account: wallets, payment tokens, onramp sessions.
    case cryptoRamp = "crypto:ramp"
    /// Keep a seamless sign-in token (`link_auth_token`) for the next sign-in without a one-time code.
    case persistLogin = "auth.persist_login:read"

    /// The scopes of a comma-separated list as stored (names it does not know are skipped).
    public static func stored(_ list: String) -> [OAuthScope] {
        list.utf8.split(separator: UInt8(ascii: ",")).compactMap { OAuthScope(rawValue: String(Substring($0))) }
    }

    /// `scopes` as stored: their names, comma-separated.
    public static func storage(_ scopes: [OAuthScope]) -> String {
        scopes.map(\.rawValue).joined(separator: ",")
    }
}

import AppAttest

/// A partner project: the unit that owns App IDs, redirect hosts, API keys and purchases.
public struct Project: Sendable, Equatable {
    /// The project id (a UUID, as CDP project ids are).
    public let id: String
    /// A display name; also the `end_partner_name` of its transactions.
    public let name: String
    /// Whether App2App is enabled (403 `forbidden` otherwise).
    public let app2AppEnabled: Bool
    /// The App Attest environments accepted.
    public let allowedEnvironments: Set<AppAttestEnvironment>
    /// Registered App IDs (`TEAMID.bundle.id`).
    public let appIds: [String]
    /// Allowed redirect hosts (exact host names, or `*.example.com` for subdomains), and app schemes
    /// written `scheme://` for the hosted onramp's redirects back into an app.
    public let redirectHosts: [String]

    /// Whether redirects into an app with `scheme` (`onrampdemo`) are on the allowlist (as `onrampdemo://`).
    public func allowsRedirectScheme(_ scheme: String) -> Bool {
        redirectHosts.contains { $0.lowercased() == scheme.lowercased() + "://" }
    }

    /// Whether `host` is on the redirect allowlist.
    public func allowsRedirectHost(_ host: String) -> Bool {
        let host = host.lowercased()
        return redirectHosts.contains { allowed in
            let allowed = allowed.lowercased()
            if allowed.hasPrefix("*.") {
                return host.hasSuffix(allowed.dropFirst(1)) && host.count > allowed.count - 1
            }
            return host == allowed
        }
    }
}

/// URL schemes that are not an app's own: a redirect with one of them must be https with an
/// allowlisted host, or is refused.
package enum RedirectScheme {
    package static let web: Set<String> = [
        "http", "https", "javascript", "data", "file", "vbscript", "blob", "about", "ftp", "ws", "wss",
    ]
}

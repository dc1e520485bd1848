/// A partner project: the unit that owns App IDs, redirect hosts, API keys and purchases.
public struct Project: Sendable, Equatable {
    /// The project id (a UUID, as CDP project ids are).
    public let id: String
    /// A display name; also the `end_partner_name` of its transactions.
    public let name: String
    /// Whether App2App is enabled (403 `forbidden` otherwise).
    public let app2AppEnabled: Bool
    /// The App Attest environments accepted (`development`, `production`).
    public let allowedEnvironments: Set<String>
    /// Registered App IDs (`TEAMID.bundle.id`).
    public let appIds: [String]
    /// Allowed redirect hosts (exact host names, or `*.example.com` for subdomains).
    public let redirectHosts: [String]

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

import Foundation

/// Where and as whom the App2App client talks.
public struct App2AppConfiguration: Sendable {
    /// The platform base URL: `https://api.cdp.coinbase.com/platform` in production, or a local server's
    /// `http://127.0.0.1:PORT/platform`.
    public var platformBaseURL: URL
    /// The CDP project id.
    public var projectId: String
    /// The app's bundle id (the `bundleID` half of the registered App ID).
    public var bundleId: String
    /// The capability scheme checked before opening a session (`com.coinbase.cdp.onramp://`).
    public var capabilityURL: URL

    /// The default capability scheme.
    public static let coinbaseCapabilityURL = URL(string: "com.coinbase.cdp.onramp://")!

    /// Creates a configuration.
    public init(
        platformBaseURL: URL, projectId: String, bundleId: String,
        capabilityURL: URL = App2AppConfiguration.coinbaseCapabilityURL
    ) {
        self.platformBaseURL = platformBaseURL
        self.projectId = projectId
        self.bundleId = bundleId
        self.capabilityURL = capabilityURL
    }

    func url(_ path: String) -> URL {
        URL(string: platformBaseURL.absoluteString.trimmingSuffix("/") + path)!
    }
}

extension String {
    package func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

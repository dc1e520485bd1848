/// The release of OnrampKit this server is: what `onramp --version` prints, and the OpenAPI description's
/// `info.version`.
public enum OnrampKitVersion {
    /// Semantic version; the minor number counts the working sessions that shipped, the patch their fixes.
    public static let current = "0.20.0"
}

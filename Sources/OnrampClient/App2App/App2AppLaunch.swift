import Foundation

/// What to open for a purchase, as decided by ``App2AppClient/launch(_:)``.
public enum App2AppLaunch: Sendable, Equatable {
    /// Open this `onrampUrl` exactly as returned (single use; expires after 15 minutes).
    case app2App(onrampURL: URL)
    /// Open the hosted onramp in a browser instead.
    case hostedOnramp(URL)
}

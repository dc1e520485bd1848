import Foundation

/// Builds the hosted-onramp URL used when the onramp app cannot take an App2App session (not installed,
/// too old, or no App Attest). Typically your backend creates a session token and you open the hosted page.
public protocol HostedOnrampFallback: Sendable {
    /// The URL to open in a browser for `purchase`.
    func hostedOnrampURL(for purchase: App2AppPurchase) async throws -> URL
}

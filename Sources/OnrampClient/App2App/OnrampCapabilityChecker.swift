import Foundation

/// Answers `canOpenURL("com.coinbase.cdp.onramp://")`: whether an installed onramp app supports App2App.
/// Inject it so tests and Linux decide without UIKit.
public protocol OnrampCapabilityChecker: Sendable {
    /// Whether `url`'s scheme can be opened on this device.
    func canOpen(_ url: URL) async -> Bool
}

/// A fixed answer (headless runs, tests, previews).
public struct FixedCapabilityChecker: OnrampCapabilityChecker {
    /// The answer given for every URL.
    public let answer: Bool

    /// Creates a checker that always answers `answer`.
    public init(_ answer: Bool) {
        self.answer = answer
    }

    /// ``answer``.
    public func canOpen(_ url: URL) async -> Bool { answer }
}

#if canImport(UIKit)
    import UIKit

    /// `UIApplication.shared.canOpenURL` (declare the scheme in `LSApplicationQueriesSchemes`).
    public struct ApplicationCapabilityChecker: OnrampCapabilityChecker {
        /// Creates the checker.
        public init() {}

        /// Asks `UIApplication` on the main actor.
        public func canOpen(_ url: URL) async -> Bool {
            await MainActor.run { UIApplication.shared.canOpenURL(url) }
        }
    }
#endif

import Foundation
import Synchronization

/// The client SDK's API configuration, as in Stripe's SDK: set ``publishableKey`` on ``shared`` before
/// creating a ``CryptoOnrampCoordinator``. ``apiBaseURL`` points at `https://api.stripe.com` or a sandbox
/// server such as `http://127.0.0.1:8080`.
public final class STPAPIClient: Sendable {
    private struct Settings {
        var publishableKey: String?
        var apiBaseURL = URL(string: "https://api.stripe.com")!
    }

    /// The client every coordinator uses unless given another.
    public static let shared = STPAPIClient()

    private let settings = Mutex(Settings())

    /// Creates a client (most apps use ``shared``).
    public init(publishableKey: String? = nil, apiBaseURL: URL? = nil) {
        settings.withLock {
            $0.publishableKey = publishableKey
            if let apiBaseURL { $0.apiBaseURL = apiBaseURL }
        }
    }

    /// The publishable key (`pk_test_…` or `pk_live_…`).
    public var publishableKey: String? {
        get { settings.withLock { $0.publishableKey } }
        set { settings.withLock { $0.publishableKey = newValue } }
    }

    /// The API base URL.
    public var apiBaseURL: URL {
        get { settings.withLock { $0.apiBaseURL } }
        set { settings.withLock { $0.apiBaseURL = newValue } }
    }
}

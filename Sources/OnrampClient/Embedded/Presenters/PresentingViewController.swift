#if canImport(UIKit)
    import UIKit

    /// What the SDK presents its UI from: a `UIViewController` on iOS.
    public typealias PresentingViewController = UIViewController
#else
    /// What the SDK presents its UI from. Without UIKit there is nothing to present on; headless presenters
    /// ignore it.
    @MainActor public final class PresentingViewController {
        /// Creates a headless presentation anchor.
        public init() {}
    }
#endif

/// Provides the view controller that presents authentication challenges (3-D Secure) during checkout.
@MainActor public protocol STPAuthenticationContext: AnyObject {
    /// The view controller to present from.
    func authenticationPresentingViewController() -> PresentingViewController
}

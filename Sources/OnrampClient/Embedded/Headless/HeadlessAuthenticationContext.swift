/// An ``STPAuthenticationContext`` for headless runs.
@MainActor public final class HeadlessAuthenticationContext: STPAuthenticationContext {
    private let viewController: PresentingViewController

    /// Creates a context presenting from `viewController`.
    public init(viewController: PresentingViewController) {
        self.viewController = viewController
    }

    /// The view controller given at creation.
    public func authenticationPresentingViewController() -> PresentingViewController { viewController }
}

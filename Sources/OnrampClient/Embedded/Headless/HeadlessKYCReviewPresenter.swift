/// Gives a fixed answer to the KYC review (default: confirmed).
@MainActor public struct HeadlessKYCReviewPresenter: KYCReviewPresenter {
    /// The answer given.
    public let answer: VerifyKycResult

    /// Creates the presenter.
    public init(answer: VerifyKycResult = .confirmed) {
        self.answer = answer
    }

    /// Returns ``answer``.
    public func review(_ info: RetrievedKycInfo, from viewController: PresentingViewController) async
        -> VerifyKycResult
    {
        answer
    }
}

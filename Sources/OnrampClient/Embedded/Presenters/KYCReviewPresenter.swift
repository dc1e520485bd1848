/// Shows stored KYC data (``RetrievedKycInfo``) for the user to confirm, in
/// ``CryptoOnrampCoordinator/verifyKYCInfo(updatedAddress:from:)``.
@MainActor public protocol KYCReviewPresenter {
    /// Returns the user's choice.
    func review(_ info: RetrievedKycInfo, from viewController: PresentingViewController) async -> VerifyKycResult
}

/// The UI steps of the coordinator. Inject your own, or use ``headless`` (Linux, tests, the demo), whose
/// presenters answer as a test user would and drive the sandbox server's hosted test pages over HTTP.
@MainActor public struct CryptoOnrampPresenters {
    /// One-time code and consent.
    public var consent: any LinkConsentPresenter
    /// KYC confirmation.
    public var kycReview: any KYCReviewPresenter
    /// Document and selfie verification.
    public var identity: any IdentityVerificationPresenter
    /// 3-D Secure.
    public var threeDSecure: any ThreeDSecurePresenter
    /// Payment method sheet.
    public var paymentMethod: any PaymentMethodPresenter

    /// Bundles presenters.
    public init(
        consent: any LinkConsentPresenter, kycReview: any KYCReviewPresenter,
        identity: any IdentityVerificationPresenter, threeDSecure: any ThreeDSecurePresenter,
        paymentMethod: any PaymentMethodPresenter
    ) {
        self.consent = consent
        self.kycReview = kycReview
        self.identity = identity
        self.threeDSecure = threeDSecure
        self.paymentMethod = paymentMethod
    }

    /// Presenters that act as a sandbox test user: code `000000` with consent, KYC confirmed, identity
    /// `verified` and 3-D Secure completed on the hosted test pages, and the card `4242 4242 4242 4242`.
    public static var headless: CryptoOnrampPresenters {
        CryptoOnrampPresenters(
            consent: HeadlessConsentPresenter(), kycReview: HeadlessKYCReviewPresenter(),
            identity: HeadlessIdentityVerificationPresenter(), threeDSecure: HeadlessThreeDSecurePresenter(),
            paymentMethod: HeadlessPaymentMethodPresenter())
    }
}

/// Decides whether a customer may buy: region rules first, then KYC tier against the amount.
public struct KYCPolicy: Sendable, Hashable {
    /// The largest transaction each tier allows, in units of the source currency (inclusive).
    public struct TierLimits: Sendable, Hashable, Codable {
        /// The limit with only L0 verified (0 means L0 alone allows no purchase).
        public var l0: DecimalAmount
        /// The limit with L1 verified.
        public var l1: DecimalAmount
        /// The limit with L2 verified; larger amounts are refused outright.
        public var l2: DecimalAmount

        /// Creates tier limits.
        public init(l0: DecimalAmount, l1: DecimalAmount, l2: DecimalAmount) {
            self.l0 = l0
            self.l1 = l1
            self.l2 = l2
        }

        /// L0 0, L1 1000, L2 25000.
        public static let standard = TierLimits(
            l0: .zero, l1: DecimalAmount(exactly: 1_000), l2: DecimalAmount(exactly: 25_000))
    }

    /// The inputs of a decision.
    public struct Request: Sendable, Hashable {
        /// The customer's verifications.
        public var verifications: CustomerVerifications
        /// The source amount and currency (`usd`/`USD`).
        public var amount: Money
        /// The customer's country (ISO 3166-1).
        public var country: String
        /// The customer's subdivision (`NY` or `US-NY`), if known.
        public var subdivision: String?
        /// The payment method.
        public var paymentMethod: PaymentMethodType
        /// Whether risk rules demand an identity challenge (L2) whatever the amount.
        public var riskRequiresDocumentVerification: Bool
        /// Whether the customer's phone or identity check was rejected (a rejected document check may be
        /// tried again; these may not).
        public var checksRejected: Bool

        /// Creates a request.
        public init(
            verifications: CustomerVerifications, amount: Money, country: String, subdivision: String? = nil,
            paymentMethod: PaymentMethodType = .card, riskRequiresDocumentVerification: Bool = false,
            checksRejected: Bool = false
        ) {
            self.verifications = verifications
            self.amount = amount
            self.country = country
            self.subdivision = subdivision
            self.paymentMethod = paymentMethod
            self.riskRequiresDocumentVerification = riskRequiresDocumentVerification
            self.checksRejected = checksRejected
        }
    }

    /// The per-transaction limits of each tier.
    public var limits: TierLimits

    /// Creates a policy.
    public init(limits: TierLimits = .standard) {
        self.limits = limits
    }

    /// The lowest tier whose limit covers `amount`, or `nil` when no tier does.
    public func requiredTier(for amount: DecimalAmount) -> KYCTier? {
        if amount <= limits.l0 { return .l0 }
        if amount <= limits.l1 { return .l1 }
        if amount <= limits.l2 { return .l2 }
        return nil
    }

    /// Decides a purchase: returns the tier it runs under, or the contract's error.
    ///
    /// Order: a customer whose phone or identity check was rejected
    /// (`crypto_onramp_unsupportable_customer`), unsupported region or currency or method
    /// (`crypto_onramp_unsupported_country`), L0 not
    /// verified, amount above every tier (`crypto_onramp_transaction_limit_reached`), then the missing
    /// L1 or L2 verification. A `pending` status counts as not verified. An EU customer needs L2 whatever the
    /// amount (Stripe's EU KYC guide: "L2 verification (document and selfie) is mandatory for all EU users"), as
    /// risk rules may demand of anyone.
    public func evaluate(_ request: Request) -> Result<KYCTier, OnrampError> {
        if request.checksRejected {
            return .failure(
                OnrampError(
                    code: .unsupportableCustomer, userMessage: "We can't sell crypto to you.",
                    developerMessage: "The customer's KYC was rejected; they cannot buy crypto."))
        }
        if let error = regionError(request) { return .failure(error) }
        let verifications = request.verifications
        guard verifications.status(of: .l0) == .verified else { return .failure(missing(.l0, verifications)) }
        guard var tier = requiredTier(for: request.amount.amount) else {
            return .failure(
                OnrampError(
                    code: .transactionLimitReached, userMessage: "This amount is above your purchase limit.",
                    developerMessage: "\(request.amount) is above the L2 limit \(limits.l2).",
                    parameter: "source_amount"))
        }
        if request.riskRequiresDocumentVerification || KYCRegion.of(country: request.country) == .eu { tier = .l2 }
        for needed in KYCTier.allCases where needed <= tier && verifications.status(of: needed) != .verified {
            return .failure(missing(needed, verifications))
        }
        return .success(tier)
    }

    /// ``evaluate(_:)`` as a throwing call that returns the tier.
    public func check(_ request: Request) throws -> KYCTier {
        try evaluate(request).get()
    }

    private func regionError(_ request: Request) -> OnrampError? {
        let currency = request.amount.currency.uppercased()
        func unsupported(_ reason: String) -> OnrampError {
            OnrampError(
                code: .unsupportedCountry, userMessage: "Purchases are not available in your region.",
                developerMessage: reason, parameter: "customer_ip_address")
        }
        if let refusal = KYCRegion.refusal(country: request.country, subdivision: request.subdivision) {
            return unsupported(refusal)
        }
        guard let region = KYCRegion.of(country: request.country) else { return nil }
        guard currency == region.currency.uppercased() else {
            return unsupported(
                "\(region.displayName) purchases must use \(region.currency), not \(currency.lowercased()).")
        }
        return !region.cardsOnly || request.paymentMethod.isCard
            ? nil : unsupported("\(region.displayName) purchases accept cards only.")
    }

    private func missing(_ tier: KYCTier, _ verifications: CustomerVerifications) -> OnrampError {
        let status = verifications.status(of: tier)
        let userMessage: String
        switch tier {
        case .l0: userMessage = "Complete your basic profile to buy crypto."
        case .l1: userMessage = "Verify your identity to buy crypto."
        case .l2: userMessage = "Verify your identity document to buy crypto."
        }
        return OnrampError(
            code: tier.missingVerificationCode, userMessage: userMessage,
            developerMessage: "KYC tier \(tier.rawValue) is \(status.rawValue); it must be verified.")
    }
}

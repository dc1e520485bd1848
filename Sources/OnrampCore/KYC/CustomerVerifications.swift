/// The verification status of each KYC tier of one customer.
public struct CustomerVerifications: Sendable, Hashable, Codable {
    /// The status per tier; a missing tier counts as ``VerificationStatus/notStarted``.
    public var tiers: [KYCTier: VerificationStatus]

    /// Creates the verifications of a customer.
    public init(tiers: [KYCTier: VerificationStatus] = [:]) {
        self.tiers = tiers
    }

    /// A customer verified up to and including `tier`, with higher tiers not started.
    public static func verified(through tier: KYCTier) -> CustomerVerifications {
        CustomerVerifications(
            tiers: Dictionary(uniqueKeysWithValues: KYCTier.allCases.map { ($0, $0 <= tier ? .verified : .notStarted) })
        )
    }

    /// The status of `tier`.
    public func status(of tier: KYCTier) -> VerificationStatus {
        tiers[tier] ?? .notStarted
    }

    /// The highest tier such that it and every tier below it are verified, if any.
    public var highestVerifiedTier: KYCTier? {
        KYCTier.allCases.prefix { status(of: $0) == .verified }.last
    }
}

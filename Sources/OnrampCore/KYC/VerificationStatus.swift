/// The status of a verification or of a KYC tier.
public enum VerificationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The verification does not apply to the customer.
    case notAvailable = "not_available"
    /// The customer has not started it.
    case notStarted = "not_started"
    /// Submitted and being checked; purchases that need it fail meanwhile.
    case pending
    /// Failed; the customer may start again.
    case rejected
    /// Passed.
    case verified
}

/// A KYC tier of the Embedded contract.
public enum KYCTier: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Name, phone, email and address.
    case l0
    /// L0 plus date of birth and SSN (or national id number).
    case l1
    /// L1 plus a photo id document and a selfie.
    case l2

    /// The fields a customer must have provided for the tier, in the contract's spelling.
    public var requiredFields: [String] {
        switch self {
        case .l0: return ["name", "phone", "email", "address"]
        case .l1: return KYCTier.l0.requiredFields + ["dob", "id_number"]
        case .l2: return KYCTier.l1.requiredFields + ["id_document", "selfie"]
        }
    }

    /// The error raised when the tier is needed but not verified.
    public var missingVerificationCode: OnrampError.Code {
        switch self {
        case .l0: return .missingMinimumIdentityVerification
        case .l1: return .missingIdentityVerification
        case .l2: return .missingDocumentVerification
        }
    }

    /// Orders tiers from L0 to L2.
    public static func < (lhs: KYCTier, rhs: KYCTier) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .l0: return 0
        case .l1: return 1
        case .l2: return 2
        }
    }
}

/// `GET /v1/crypto/internal/identifier_requirements`: the identifiers an EU customer still owes
/// (stripe-android `ComplianceIdentifierRequirementsResponse.kt` at fe68fa21; `carf_tin_required` from an older
/// test answer). The regulation is one of those the SDK knows (`eu_carf`, `eu_mica`); any other fails it.
public struct CryptoIdentifierRequirements: WireObject, Codable, Equatable {
    /// One identifier owed.
    public struct Identifier: Codable, Equatable, Sendable {
        /// The identifier's type (`tin`, `national_id`, …).
        public var type: String
        /// The regulation asking for it.
        public var regulation: String

        /// An identifier owed under `regulation`.
        public init(type: String, regulation: String) {
            self.type = type
            self.regulation = regulation
        }

        /// What an identifier always holds.
        public static let schema = APISchema.object(
            ["type": .string, "regulation": .string], required: ["type", "regulation"])
    }

    /// Identifiers that may stand in for missing ones.
    public struct Alternative: Codable, Equatable, Sendable {
        /// The identifiers missing.
        public var originalMissingIdentifiers: [String]
        /// What may be sent instead.
        public var alternativeMissingIdentifiers: [String]

        enum CodingKeys: String, CodingKey {
            case originalMissingIdentifiers = "original_missing_identifiers"
            case alternativeMissingIdentifiers = "alternative_missing_identifiers"
        }

        /// An alternative group.
        public init(originalMissingIdentifiers: [String], alternativeMissingIdentifiers: [String]) {
            self.originalMissingIdentifiers = originalMissingIdentifiers
            self.alternativeMissingIdentifiers = alternativeMissingIdentifiers
        }
    }

    /// Always `crypto.identifier_requirements`.
    public var object: String
    /// The identifiers owed.
    public var identifiers: [Identifier]
    /// What may stand in for some of them.
    public var alternatives: [Alternative]
    /// Whether a tax identifier is owed under CARF.
    public var carfTINRequired: Bool

    enum CodingKeys: String, CodingKey {
        case object, identifiers, alternatives, carfTINRequired = "carf_tin_required"
    }

    /// What a customer owes.
    public init(identifiers: [Identifier], alternatives: [Alternative], carfTINRequired: Bool) {
        object = "crypto.identifier_requirements"
        self.identifiers = identifiers
        self.alternatives = alternatives
        self.carfTINRequired = carfTINRequired
    }

    /// What the answer always holds.
    public static let schema = APISchema.object(
        [
            "object": .constant("crypto.identifier_requirements"),
            "identifiers": .array(Identifier.schema),
            "alternatives": .array(
                .object(
                    [
                        "original_missing_identifiers": .array(.string),
                        "alternative_missing_identifiers": .array(.string),
                    ], required: ["original_missing_identifiers", "alternative_missing_identifiers"])),
            "carf_tin_required": .boolean,
        ], required: ["object", "identifiers", "alternatives", "carf_tin_required"])
}

/// `POST /v1/crypto/internal/eu_identifiers`: what is still owed after a submission, and which identifiers were
/// refused (stripe-android `SubmitIdentifiersResponse.kt` at fe68fa21), the requirements' members at the top level.
public struct CryptoIdentifierSubmission: WireObject, Codable, Equatable {
    /// What is still owed.
    public var requirements: CryptoIdentifierRequirements
    /// Whether every identifier sent was valid.
    public var valid: Bool
    /// The types of those that were not.
    public var invalidIdentifiers: [String]

    enum CodingKeys: String, CodingKey {
        case valid, invalidIdentifiers = "invalid_identifiers"
    }

    /// A submission's answer; valid when no identifier was refused.
    public init(requirements: CryptoIdentifierRequirements, invalidIdentifiers: [String]) {
        self.requirements = requirements
        valid = invalidIdentifiers.isEmpty
        self.invalidIdentifiers = invalidIdentifiers
    }

    /// Writes the requirements' members, then the submission's.
    public func encode(to encoder: any Encoder) throws {
        try requirements.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(valid, forKey: .valid)
        try container.encode(invalidIdentifiers, forKey: .invalidIdentifiers)
    }

    /// Reads both from one object.
    public init(from decoder: any Decoder) throws {
        requirements = try CryptoIdentifierRequirements(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        valid = try container.decode(Bool.self, forKey: .valid)
        invalidIdentifiers = try container.decode([String].self, forKey: .invalidIdentifiers)
    }

    /// What the answer always holds.
    public static let schema = CryptoIdentifierRequirements.schema.adding(
        ["valid": .boolean, "invalid_identifiers": .array(.string)], required: ["valid", "invalid_identifiers"])
}

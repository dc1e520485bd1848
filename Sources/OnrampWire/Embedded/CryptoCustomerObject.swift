/// The `crypto.customer` object, as stripe-node types it (`src/resources/Crypto/Customers.ts`): the customer's
/// KYC region, the status of each KYC tier and of each verification behind them, and the fields provided so
/// far. Statuses, tiers and error codes are plain strings here; the server's schema names their values.
public struct CryptoCustomerObject: WireObject, Codable, Equatable {
    /// One KYC tier (`l0`, `l1`, `l2`) and where its verification stands.
    public struct Tier: Codable, Equatable, Sendable {
        /// The tier.
        public var tier: String
        /// `not_started`, `pending`, `verified` or `rejected`.
        public var verificationStatus: String
        /// Why it was rejected; empty otherwise.
        public var verificationErrors: [String]

        enum CodingKeys: String, CodingKey {
            case tier, verificationStatus = "verification_status", verificationErrors = "verification_errors"
        }

        /// A tier's status.
        public init(tier: String, verificationStatus: String, verificationErrors: [String]) {
            self.tier = tier
            self.verificationStatus = verificationStatus
            self.verificationErrors = verificationErrors
        }

        /// What a tier always holds.
        public static let schema = APISchema.object(
            ["tier": .string, "verification_status": .string, "verification_errors": .array(.string)],
            required: ["tier", "verification_status", "verification_errors"])
    }

    /// One verification (`phone_verified`, `kyc_verified`, `id_document_verified`).
    public struct Verification: Codable, Equatable, Sendable {
        /// The verification.
        public var name: String
        /// Where it stands.
        public var status: String
        /// Why it was rejected; empty otherwise.
        public var errors: [String]

        /// A verification's status.
        public init(name: String, status: String, errors: [String]) {
            self.name = name
            self.status = status
            self.errors = errors
        }

        /// What a verification always holds.
        public static let schema = APISchema.object(
            ["name": .string, "status": .string, "errors": .array(.string)], required: ["name", "status", "errors"])
    }

    /// `crc_…`.
    public var id: String
    /// Always `crypto.customer`.
    public var object: String
    /// Whether the customer belongs to live mode.
    public var livemode: Bool
    /// `us` or `eu`; `null` before an address says which.
    public var kycRegion: String?
    /// The tiers, `l0` to `l2`.
    public var kycTiers: [Tier]
    /// The fields provided so far (stripe-node's `ProvidedField`).
    public var providedFields: [String]
    /// The verifications behind the tiers.
    public var verifications: [Verification]

    enum CodingKeys: String, CodingKey {
        case id, object, livemode, kycRegion = "kyc_region", kycTiers = "kyc_tiers"
        case providedFields = "provided_fields", verifications
    }

    /// A customer object.
    public init(
        id: String, livemode: Bool, kycRegion: String?, kycTiers: [Tier], providedFields: [String],
        verifications: [Verification]
    ) {
        self.id = id
        object = "crypto.customer"
        self.livemode = livemode
        self.kycRegion = kycRegion
        self.kycTiers = kycTiers
        self.providedFields = providedFields
        self.verifications = verifications
    }

    /// `kyc_region` is `null` until known.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What a customer always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.customer"), "livemode": .boolean,
            "kyc_region": APISchema.string.nullable,
            "kyc_tiers": .array(Tier.schema), "provided_fields": .array(.string),
            "verifications": .array(Verification.schema),
        ], required: ["id", "object", "livemode", "kyc_region", "kyc_tiers", "provided_fields", "verifications"])
}

/// What `POST /v1/crypto/internal/kyc_data_collection` answers: the customer, and beside its members the
/// person and the data just collected. stripe-ios's `KYCDataCollectionResponse` required `person_id`,
/// `first_name`, `last_name`, `nationalities` and `residence_country` at 13cc52dd and only `person_id` at
/// 69ac90f9; every version decodes the union, so all five are always written.
public struct CryptoKYCCollection: WireObject, Codable, Equatable {
    /// The customer, its members at the top level.
    public var customer: CryptoCustomerObject
    /// `cperson_…`.
    public var personId: String
    /// The first name collected.
    public var firstName: String
    /// The last name collected.
    public var lastName: String
    /// The nationalities collected (ISO codes), in order.
    public var nationalities: [String]
    /// The country of the address collected.
    public var residenceCountry: String

    enum CodingKeys: String, CodingKey {
        case personId = "person_id", firstName = "first_name", lastName = "last_name", nationalities
        case residenceCountry = "residence_country"
    }

    /// The collection answer.
    public init(
        customer: CryptoCustomerObject, personId: String, firstName: String, lastName: String,
        nationalities: [String], residenceCountry: String
    ) {
        self.customer = customer
        self.personId = personId
        self.firstName = firstName
        self.lastName = lastName
        self.nationalities = nationalities
        self.residenceCountry = residenceCountry
    }

    /// Writes the customer's members, then the collection's.
    public func encode(to encoder: any Encoder) throws {
        try customer.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(personId, forKey: .personId)
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(nationalities, forKey: .nationalities)
        try container.encode(residenceCountry, forKey: .residenceCountry)
    }

    /// Reads the customer's members and the collection's from one object.
    public init(from decoder: any Decoder) throws {
        customer = try CryptoCustomerObject(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        personId = try container.decode(String.self, forKey: .personId)
        firstName = try container.decode(String.self, forKey: .firstName)
        lastName = try container.decode(String.self, forKey: .lastName)
        nationalities = try container.decode([String].self, forKey: .nationalities)
        residenceCountry = try container.decode(String.self, forKey: .residenceCountry)
    }

    /// The customer's `null` region is written as `null`.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What the answer always holds: the customer's members and the five the SDKs require.
    public static let schema = CryptoCustomerObject.schema.adding(
        [
            "person_id": .string, "first_name": .string, "last_name": .string, "nationalities": .array(.string),
            "residence_country": .string,
        ], required: ["person_id", "first_name", "last_name", "nationalities", "residence_country"])
}

/// The `crypto.kyc_data` object: the KYC data on file, the id number only as its last 4 digits. stripe-ios's
/// `RetrieveKYCInfoResponse` and stripe-android's `KycRetrieveResponse` (dd412601) require the name and the date
/// of birth, so the server answers a retrieval only once they are collected; the confirmation answers whatever
/// is on file.
public struct CryptoKYCData: WireObject, Codable, Equatable {
    /// A date of birth.
    public struct DateOfBirth: Codable, Equatable, Sendable {
        /// The year.
        public var year: Int
        /// The month, 1 to 12.
        public var month: Int
        /// The day, 1 to 31.
        public var day: Int

        /// A date of birth.
        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// The date a `YYYY-MM-DD` text names, or `nil`.
        public init?(isoDate text: String) {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            self.init(year: parts[0], month: parts[1], day: parts[2])
        }
    }

    /// The address on file, every member `null` when not given.
    public struct Address: Codable, Equatable, Sendable {
        /// First line.
        public var line1: String?
        /// Second line.
        public var line2: String?
        /// City.
        public var city: String?
        /// State or region.
        public var state: String?
        /// Postal code.
        public var zip: String?
        /// ISO country code.
        public var country: String?

        /// An address.
        public init(
            line1: String?, line2: String?, city: String?, state: String?, zip: String?, country: String?
        ) {
            self.line1 = line1
            self.line2 = line2
            self.city = city
            self.state = state
            self.zip = zip
            self.country = country
        }
    }

    /// Always `crypto.kyc_data`.
    public var object: String
    /// First name.
    public var firstName: String?
    /// Last name.
    public var lastName: String?
    /// The id number's last 4 digits.
    public var idNumberLast4: String?
    /// The id's type.
    public var idType: String?
    /// Date of birth.
    public var dob: DateOfBirth?
    /// Address.
    public var address: Address

    enum CodingKeys: String, CodingKey {
        case object, firstName = "first_name", lastName = "last_name", idNumberLast4 = "id_number_last4"
        case idType = "id_type", dob, address
    }

    /// The data on file.
    public init(
        firstName: String?, lastName: String?, idNumberLast4: String?, idType: String?, dob: DateOfBirth?,
        address: Address
    ) {
        object = "crypto.kyc_data"
        self.firstName = firstName
        self.lastName = lastName
        self.idNumberLast4 = idNumberLast4
        self.idType = idType
        self.dob = dob
        self.address = address
    }

    /// Every absent member is `null`.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What the data always holds (each member `null` when not on file).
    public static let schema = APISchema.object(
        [
            "object": .constant("crypto.kyc_data"), "first_name": APISchema.string.nullable,
            "last_name": APISchema.string.nullable, "id_number_last4": APISchema.string.nullable,
            "id_type": APISchema.string.nullable,
            "dob": APISchema.object(
                ["year": .integer, "month": .integer, "day": .integer], required: ["year", "month", "day"]
            ).nullable,
            "address": .object(
                [
                    "line1": APISchema.string.nullable, "line2": APISchema.string.nullable,
                    "city": APISchema.string.nullable, "state": APISchema.string.nullable,
                    "zip": APISchema.string.nullable, "country": APISchema.string.nullable,
                ], required: ["line1", "line2", "city", "state", "zip", "country"]),
        ], required: ["object", "first_name", "last_name", "id_number_last4", "id_type", "dob", "address"])
}

/// The KYC data the app collects (tier L0 + L1: name, address, date of birth, id number).
public struct KycInfo: Sendable, Equatable {
    /// A date of birth.
    public struct DateOfBirth: Sendable, Equatable {
        /// Day of month.
        public var day: Int
        /// Month, 1–12.
        public var month: Int
        /// Year.
        public var year: Int

        /// Creates a date of birth.
        public init(day: Int, month: Int, year: Int) {
            self.day = day
            self.month = month
            self.year = year
        }
    }

    /// Given name.
    public var firstName: String
    /// Family name (sandbox: `Verified` makes phone verification succeed).
    public var lastName: String
    /// The id number (US: SSN; sandbox `000000000`).
    public var idNumber: String?
    /// The id type (`social_security_number`).
    public var idType: String?
    /// Residential address (sandbox line 1 `address_full_match`).
    public var address: Address
    /// Date of birth.
    public var dateOfBirth: DateOfBirth

    /// Creates KYC info.
    public init(
        firstName: String, lastName: String, idNumber: String? = nil, idType: String? = "social_security_number",
        address: Address, dateOfBirth: DateOfBirth
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.idNumber = idNumber
        self.idType = idType
        self.address = address
        self.dateOfBirth = dateOfBirth
    }

    var formFields: [(String, String)] {
        var fields = [("first_name", firstName), ("last_name", lastName)]
        if let idNumber { fields.append(("id_number", idNumber)) }
        if let idType, idNumber != nil { fields.append(("id_type", idType)) }
        fields += address.formFields
        fields += [
            ("dob[day]", String(dateOfBirth.day)), ("dob[month]", String(dateOfBirth.month)),
            ("dob[year]", String(dateOfBirth.year)),
        ]
        return fields
    }
}

import OnrampCore
import OnrampStore
import OnrampWire

/// A crypto customer (`crc_…`) of one Link consumer: KYC data (the id number only as a hash and its
/// last 4 digits) and the three verifications that make up the KYC tiers.
package struct CryptoCustomer: Sendable {
    package let id: String
    package let projectId: String
    package let consumerId: String
    package let livemode: Bool
    package let legalName: String
    package let firstName: String?
    package let lastName: String?
    package let idNumberLast4: String?
    package let idType: String?
    package let dob: String?
    package let address: [String: String]
    package let country: String
    /// ISO codes, in the order collected; empty when none were.
    package let nationalities: [String]
    package let birthCountry: String?
    package let birthCity: String?
    package let phoneStatus: VerificationStatus
    package let kycStatus: VerificationStatus
    package let documentStatus: VerificationStatus

    package static let addressFields = ["line1", "line2", "city", "state", "zip", "country"]

    package init(row: Row) throws {
        id = try row.string("id")
        projectId = try row.string("project_id")
        consumerId = try row.string("consumer_id")
        livemode = try row.int("livemode") != 0
        legalName = try row.string("legal_name")
        firstName = row.optionalString("first_name")
        lastName = row.optionalString("last_name")
        idNumberLast4 = row.optionalString("id_number_last4")
        idType = row.optionalString("id_type")
        dob = row.optionalString("dob")
        var address: [String: String] = [:]
        for field in Self.addressFields { address[field] = row.optionalString(field) }
        self.address = address
        country = try row.string("country")
        nationalities = row.optionalString("nationalities")?.split(separator: ",").map(String.init) ?? []
        birthCountry = row.optionalString("birth_country")
        birthCity = row.optionalString("birth_city")
        phoneStatus = VerificationStatus(rawValue: try row.string("phone_status")) ?? .notStarted
        kycStatus = VerificationStatus(rawValue: try row.string("kyc_status")) ?? .notStarted
        documentStatus = VerificationStatus(rawValue: try row.string("document_status")) ?? .notStarted
    }

    /// The region (`us`/`eu`) the customer transacts under.
    package var region: KYCRegion? { KYCRegion.of(country: country) }

    /// The id of the KYC person behind the customer (`cperson_…`, derived from the customer's id), which the
    /// KYC collection answer carries.
    package var personId: String { "cperson_" + id.dropFirst(IdPrefix.cryptoCustomer.count + 1) }

    /// The status of each tier: L0 follows phone verification once an address is on file, L1 the KYC
    /// check once date of birth and id number are on file, L2 the identity document.
    package var verifications: CustomerVerifications {
        let hasAddress = address["line1"] != nil
        let hasL1 = dob != nil && idNumberLast4 != nil
        return CustomerVerifications(tiers: [
            .l0: hasAddress ? phoneStatus : .notStarted,
            .l1: hasL1 ? kycStatus : .notStarted,
            .l2: documentStatus,
        ])
    }

    /// The fields provided so far, named as stripe-node's `Crypto.Customer.ProvidedField`
    /// (`src/resources/Crypto/Customers.ts`).
    package var providedFields: [String] {
        var fields: [String] = []
        if firstName != nil { fields += ["first_name", "last_name"] }
        let addressNames = [
            "line1": "address_line_1", "line2": "address_line_2", "city": "address_city", "state": "address_state",
            "zip": "address_postal_code", "country": "address_country",
        ]
        fields += Self.addressFields.compactMap { address[$0] == nil ? nil : addressNames[$0] }
        if dob != nil { fields.append("dob") }
        if !nationalities.isEmpty { fields.append("nationalities") }
        if birthCountry != nil { fields.append("birth_country") }
        if birthCity != nil { fields.append("birth_city") }
        if idNumberLast4 != nil { fields += ["id_number", "id_type"] }
        if documentStatus == .verified { fields += ["id_document", "selfie"] }
        return fields
    }

    /// The errors of a verification in `status`: `error` when rejected (`Crypto.Customer.Verification.Error`).
    private static func errors(_ status: VerificationStatus, _ error: String) -> [String] {
        status == .rejected ? [error] : []
    }

    /// The `crypto.customer` object.
    package var wire: CryptoCustomerObject {
        let tiers = verifications
        let tierErrors: [KYCTier: String] = [
            .l0: "phone_verification_failed", .l1: "person_verification_failed", .l2: "id_document_verification_failed",
        ]
        return CryptoCustomerObject(
            id: id, livemode: livemode, kycRegion: region?.rawValue,
            kycTiers: KYCTier.allCases.map {
                .init(
                    tier: $0.rawValue, verificationStatus: tiers.status(of: $0).rawValue,
                    verificationErrors: Self.errors(tiers.status(of: $0), tierErrors[$0] ?? ""))
            },
            providedFields: providedFields,
            verifications: [
                .init(
                    name: "phone_verified", status: phoneStatus.rawValue,
                    errors: Self.errors(phoneStatus, "phone_verification_failed")),
                .init(
                    name: "kyc_verified", status: kycStatus.rawValue,
                    errors: Self.errors(kycStatus, "person_verification_failed")),
                .init(
                    name: "id_document_verified", status: documentStatus.rawValue,
                    errors: Self.errors(documentStatus, "id_document_verification_failed")),
            ])
    }

    /// The KYC data as `kyc_data_retrieve` returns it: only the last 4 of the id number.
    package var kycData: CryptoKYCData {
        CryptoKYCData(
            firstName: firstName, lastName: lastName, idNumberLast4: idNumberLast4, idType: idType,
            dob: dob.flatMap(CryptoKYCData.DateOfBirth.init(isoDate:)),
            address: .init(
                line1: address["line1"], line2: address["line2"], city: address["city"], state: address["state"],
                zip: address["zip"], country: address["country"]))
    }
}

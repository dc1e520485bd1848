/// The identifiers the EU's rules ask of a crypto customer before a purchase: under MiCA a national identifier
/// of each nationality, under CRS/CARF a tax identification number (TIN) of the country of residence. The
/// identifier types are those the 2026 SDKs know (stripe-ios `ComplianceIdentifierType.swift`, one per
/// member state, two for Malta and Poland, where either does); a customer outside the EU owes none.
public enum ComplianceIdentifiers {
    /// The rule an identifier is asked under (stripe-android `ComplianceRegulation.kt` at fe68fa21).
    public enum Regulation: String, Sendable, CaseIterable {
        case euCarf = "eu_carf"
        case euMica = "eu_mica"
    }

    /// One identifier still owed.
    public struct Requirement: Equatable, Sendable {
        public let type: String
        public let regulation: Regulation
    }

    /// Identifiers of which one stands for another (Malta's identity card or passport number, Poland's PESEL
    /// or NIP).
    public struct Alternative: Equatable, Sendable {
        public let original: [String]
        public let alternative: [String]
    }

    /// What a customer still owes.
    public struct Plan: Equatable, Sendable {
        public let identifiers: [Requirement]
        public let alternatives: [Alternative]
        /// Whether a CRS/CARF TIN is still owed.
        public let carfTINRequired: Bool

        /// Whether nothing is owed.
        public var isComplete: Bool { identifiers.isEmpty }
    }

    /// Each member state's identifier types, the first the one asked for.
    public static let typesByCountry: [String: [String]] = [
        "AT": ["at_stn"], "BE": ["be_nrn"], "BG": ["bg_ucn"], "HR": ["hr_oib"], "CY": ["cy_tic"], "CZ": ["cz_rc"],
        "DK": ["dk_cpr"], "EE": ["ee_ik"], "FI": ["fi_hetu"], "FR": ["fr_spi"], "DE": ["de_stn"], "GR": ["gr_afm"],
        "HU": ["hu_ad"], "IS": ["is_kt"], "IE": ["ie_ppsn"], "IT": ["it_cf"], "LV": ["lv_pk"], "LT": ["lt_ak"],
        "LU": ["lu_nif"], "MT": ["mt_nic", "mt_pp"], "NL": ["nl_bsn"], "PL": ["pl_pesel", "pl_nip"],
        "PT": ["pt_nif"], "RO": ["ro_cnp"], "SK": ["sk_rc"], "SI": ["si_pin"], "SE": ["se_pin"],
    ]

    /// Whether `type` is an identifier type of this table.
    public static func isKnown(_ type: String) -> Bool {
        typesByCountry.values.contains { $0.contains(type) }
    }

    /// What a customer residing in `residence` with `nationalities` (ISO codes; the residence counts when
    /// none are on file) still owes, having submitted identifiers of the types in `submitted`.
    public static func plan(residence: String, nationalities: [String], submitted: Set<String>) -> Plan {
        guard KYCRegion.of(country: residence) == .eu else {
            return Plan(identifiers: [], alternatives: [], carfTINRequired: false)
        }
        var identifiers: [Requirement] = []
        var alternatives: [Alternative] = []
        var countries: [String] = []
        for country in (nationalities.isEmpty ? [residence] : nationalities).map({ $0.uppercased() })
        where !countries.contains(country) {
            countries.append(country)
        }
        for country in countries {
            guard let types = typesByCountry[country], types.allSatisfy({ !submitted.contains($0) }) else { continue }
            identifiers.append(Requirement(type: types[0], regulation: .euMica))
            if types.count > 1 { alternatives.append(Alternative(original: [types[0]], alternative: [types[1]])) }
        }
        let residenceTypes = typesByCountry[residence.uppercased()] ?? []
        let carf = !residenceTypes.isEmpty && residenceTypes.allSatisfy { !submitted.contains($0) }
        if carf { identifiers.append(Requirement(type: residenceTypes[0], regulation: .euCarf)) }
        return Plan(identifiers: identifiers, alternatives: alternatives, carfTINRequired: carf)
    }

    /// Whether `value` can be an identifier: 4 to 32 characters of letters, digits, spaces, `.`, `/` and `-`,
    /// starting with a letter or digit. (The sandbox checks the form only, never a national checksum.)
    public static func isWellFormed(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (4...32).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/")
                || $0 == UInt8(ascii: "-")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}

/// The documents and questions an EU customer owes beyond the identifiers: a proof of address and the
/// purpose of the purchases (the requirement and question names the SDKs' own tests use,
/// `proof_of_address` and `purchase_purpose`). A customer outside the EU owes none beyond the KYC tiers.
public enum KYCDocumentRequirements {
    /// The proof-of-address requirement's name.
    public static let proofOfAddress = "proof_of_address"
    /// Its question's id.
    public static let purchasePurpose = "purchase_purpose"
    /// The document subtypes a proof of address may be.
    public static let proofOfAddressSubtypes = ["utility_bill", "bank_statement", "tax_letter"]

    /// The requirements a customer residing in `residence` still owes, given those `fulfilled`.
    public static func outstanding(residence: String, fulfilled: Set<String>) -> [String] {
        guard KYCRegion.of(country: residence) == .eu, !fulfilled.contains(proofOfAddress) else { return [] }
        return [proofOfAddress]
    }
}

import Foundation
import OnrampCore
import OnrampWire

/// `POST /v1/crypto/internal/kyc_data_collection` as the service takes it (stripe-ios
/// `KycInfo.swift`): the name, an optional id number (digits only), the address and date of birth.
/// Decoded at the edge; no I/O.
package struct KYCCollection: Sendable {
    package let firstName: String
    package let lastName: String
    /// The id number's digits (separators dropped); never stored as sent.
    package let idNumber: String?
    /// `id_type`, `social_security_number` when an id number comes without one.
    package let idType: String?
    package let address: [String: String]
    /// `YYYY-MM-DD`.
    package let dob: String?
    /// ISO 3166-1 alpha-2 codes, upper-cased (the 2026 SDKs' `nationalities`); empty when none were sent.
    package let nationalities: [String]
    /// ISO 3166-1 alpha-2, upper-cased (stripe-ios `KYCData.swift` at b0553d43 `birth_country`).
    package let birthCountry: String?
    package let birthCity: String?

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        firstName = try fields.required("first_name", maxLength: 100)
        lastName = try fields.required("last_name", maxLength: 100)
        let idNumber = try fields.optional("id_number", maxLength: 32)?.filter { $0 != "-" && $0 != " " }
        if let idNumber, !(4...20).contains(idNumber.count) || !idNumber.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw fields.invalid("id_number", "id_number must be 4 to 20 digits.")
        }
        self.idNumber = idNumber
        idType = try fields.optional("id_type", maxLength: 32) ?? (idNumber == nil ? nil : "social_security_number")
        address = try Self.address(fields, required: true)
        if let dobFields = try fields.object("dob") {
            let day = Int(try dobFields.required("day", maxLength: 2)) ?? 0
            let month = Int(try dobFields.required("month", maxLength: 2)) ?? 0
            let year = Int(try dobFields.required("year", maxLength: 4)) ?? 0
            guard (1...12).contains(month), (1900...2100).contains(year),
                (1...Self.days(inMonth: month, of: year)).contains(day)
            else { throw fields.invalid("dob", "dob must be a valid date.") }
            dob = String(format: "%04d-%02d-%02d", year, month, day)
        } else {
            dob = nil
        }
        nationalities = try (fields.optionalList("nationalities", maxCount: 10, maxLength: 2) ?? []).map {
            try Self.countryCode($0, field: "nationalities", fields)
        }
        birthCountry = try fields.optional("birth_country", maxLength: 2).map {
            try Self.countryCode($0, field: "birth_country", fields)
        }
        birthCity = try fields.optional("birth_city", maxLength: 100)
    }

    /// `code` upper-cased when it is two ASCII letters (an ISO 3166-1 alpha-2 code).
    private static func countryCode(_ code: String, field: String, _ fields: RequestFields) throws -> String {
        guard code.utf8.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw fields.invalid(field, "\(field) takes two-letter ISO 3166-1 country codes.")
        }
        return code.uppercased()
    }

    /// Address fields flat (`line1`) or nested (`address[line1]`); country and state upper-cased.
    package static func address(_ fields: RequestFields, required: Bool) throws -> [String: String] {
        let source = try fields.object("address") ?? fields
        var address: [String: String] = [:]
        for field in CryptoCustomer.addressFields {
            if let value = try source.optional(field, maxLength: 200), !value.isEmpty { address[field] = value }
        }
        if let country = address["country"] { address["country"] = country.uppercased() }
        if let state = address["state"] { address["state"] = state.uppercased() }
        if required, address["line1"] == nil { throw fields.invalid("line1", "Missing required field line1.") }
        return address
    }

    /// The days of `month` (1–12) in the Gregorian `year`.
    package static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A wallet as the SDK names one (`wallet_address`, `network`, lower-cased): to register, or to prove.
package struct WalletReference: Sendable {
    package let address: String
    package let network: String

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        address = try fields.required("wallet_address", maxLength: 128)
        network = try fields.required("network", maxLength: 32).lowercased()
    }
}

/// `POST /v1/crypto/internal/payment_token` as the service takes it. The SDK sends only
/// `payment_method` and `crypto_customer_id` (stripe-ios `CreatePaymentTokenRequest.swift`).
package struct PaymentTokenCreation: Sendable {
    package let customerId: String
    package let paymentMethodId: String

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        guard let customerId = try fields.optional("crypto_customer_id", maxLength: 64) else {
            throw FieldError.stripe(
                "missing_crypto_customer_id", "Send crypto_customer_id.", param: "crypto_customer_id")
        }
        if let mode = try fields.optional("ui_mode", maxLength: 16), mode != "headless" {
            throw fields.invalid("ui_mode", "ui_mode is headless.")
        }
        self.customerId = customerId
        paymentMethodId = try fields.required("payment_method", maxLength: 64)
    }
}

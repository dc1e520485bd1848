import OnrampCore
import OnrampWire

/// A consumer lookup (`/v1/consumers/…/lookup`) as the service takes it: by the seamless sign-in
/// client secret, by a LinkAuthIntent, or by email, the first of them the form carries. No I/O.
package enum ConsumerLookup: Sendable, Equatable {
    /// `link_auth_token_client_secret`: a single-use secret of a seamless sign-in token.
    case seamlessSignIn(clientSecret: String)
    /// `link_auth_intent_id`: the intent the partner created for this consumer.
    case linkAuthIntent(id: String)
    /// `email_address`, lower-cased.
    case email(String)

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws(FieldError) {
        if let secret = try fields.optional("link_auth_token_client_secret", maxLength: 128) {
            self = .seamlessSignIn(clientSecret: secret)
        } else if let id = try fields.optional("link_auth_intent_id", maxLength: 64) {
            self = .linkAuthIntent(id: id)
        } else {
            self = .email(try fields.required("email_address", maxLength: 800).lowercased())
        }
    }
}

/// A sign-up (`/v1/consumers/…/sign_up`) as the service takes it. No I/O.
package struct ConsumerSignUp: Sendable, Equatable {
    /// Lower-cased.
    package let email: String
    package let phone: PhoneNumber
    /// ISO 3166-1 alpha-2, upper case: the form's, or inferred from a `+1` phone number.
    package let country: String
    package let legalName: String

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        let email = try fields.required("email_address", maxLength: 800).lowercased()
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
            throw fields.invalid("email_address", "email_address is not an email address.")
        }
        self.email = email
        phone = try Self.phone(fields)
        let country = try fields.optional("country", maxLength: 2)?.uppercased() ?? Self.country(of: phone)
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw fields.invalid("country", "country is an ISO 3166-1 alpha-2 code.")
        }
        self.country = country
        legalName = try fields.optional("legal_name", maxLength: 200) ?? ""
    }

    /// The `phone_number` field as E.164; a bad one gets the message whose start
    /// `CryptoOnrampCoordinator.handlePhoneFormatError` (stripe-ios) turns into `invalidPhoneFormat`.
    package static func phone(_ fields: RequestFields) throws -> PhoneNumber {
        do {
            return try PhoneNumber(e164: try fields.required("phone_number", maxLength: 32))
        } catch let error as OnrampError {
            throw FieldError.stripe(
                "invalid_phone_format", "There was an issue parsing the phone number. \(error.developerMessage)",
                param: "phone_number")
        }
    }

    /// The country a sign-up without `country` is in: the SDK infers it from the phone number
    /// (`country_inferring_method=PHONE_NUMBER`); here `+1` is the US and anything else needs `country`.
    package static func country(of phone: PhoneNumber) throws -> String {
        guard phone.e164.hasPrefix("+1") else {
            throw FieldError.stripe(
                "parameter_missing", "Send country for phone numbers outside +1.", param: "country")
        }
        return "US"
    }
}

/// `start_verification`'s form: only `type=SMS` (the default) is sent here.
package struct VerificationStart: Sendable, Equatable {
    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        let type = try fields.optional("type", maxLength: 16) ?? "SMS"
        guard type == "SMS" else {
            throw FieldError.stripe("parameter_invalid", "Only type=SMS is supported.", param: "type")
        }
    }
}

/// `confirm_verification`'s form: the one-time code and, for a session opened for a LinkAuthIntent,
/// the consent given inline.
package struct VerificationConfirmation: Sendable, Equatable {
    package let code: String
    package let consentGranted: Bool?

    /// A confirmation of `code`, with `consentGranted` when given inline.
    package init(code: String, consentGranted: Bool?) {
        self.code = code
        self.consentGranted = consentGranted
    }

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws(FieldError) {
        code = try fields.required("code", maxLength: 16)
        consentGranted = try fields.optionalBool("consent_granted")
    }
}

/// `consent_update`'s form: whether the consumer allows the LinkAuthIntent.
package struct ConsentUpdate: Sendable, Equatable {
    package let granted: Bool

    /// Decodes the form's fields.
    package init(_ fields: RequestFields) throws {
        guard let granted = try fields.optionalBool("consent_granted") else {
            throw FieldError.stripe("parameter_missing", "Missing consent_granted.", param: "consent_granted")
        }
        self.granted = granted
    }
}

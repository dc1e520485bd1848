import Foundation

// The answers of each call stripe-android's `crypto-onramp` makes, declared with what its parsers require
// (`../shared/audits/stripe-android-2026.md` §3, each type citing its Kotlin file and commit): a non-optional
// property must be there and non-null; `crypto/internal/*` models are kotlinx classes whose nullable
// properties without a default must still be present (null allowed), checked by `requirePresent`; unknown
// keys are ignored. `PM` = `payments-model/src/main/java/com/stripe/android/model/`, `CO` =
// `crypto-onramp/src/main/java/com/stripe/android/crypto/onramp/`.

extension KeyedDecodingContainer {
    /// Fails unless `key` is present (its value may be null), as kotlinx does for a property without default.
    func requirePresent(_ key: Key) throws {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "kotlinx: required"))
        }
    }
}

/// `PM/parsers/ConsumerSessionJsonParser.kt` (12f1bf39): `getString` on `client_secret`, `email_address`,
/// `redacted_formatted_phone_number` and `redacted_phone_number`; `verification_sessions` optional, each with
/// `type` and `state` matched lower-cased.
struct AndroidConsumerSession: Decodable {
    struct Verification: Decodable {
        let type: String
        let state: String
    }
    let clientSecret: String
    let emailAddress: String
    let redactedFormattedPhoneNumber: String
    let redactedPhoneNumber: String
    let verificationSessions: [Verification]?
    /// A later parser's `ConsumerSession.linkSessionKey` (optional there; the newest SDK's KYC calls need it).
    let linkSessionKey: String?

    enum CodingKeys: String, CodingKey {
        case clientSecret = "client_secret", emailAddress = "email_address"
        case redactedFormattedPhoneNumber = "redacted_formatted_phone_number"
        case redactedPhoneNumber = "redacted_phone_number", verificationSessions = "verification_sessions"
        case linkSessionKey = "link_session_key"
    }

    /// Whether a verification of `type` reached `state` (compared lower-cased, as the parser does).
    func has(_ type: String, _ state: String) -> Bool {
        (verificationSessions ?? []).contains { $0.type.lowercased() == type && $0.state.lowercased() == state }
    }
}

/// `PM/parsers/ConsumerSessionLookupJsonParser.kt` (013ad297): all optional, a present session parses fully.
struct AndroidLookupResponse: Decodable {
    let exists: Bool?
    let consumerSession: AndroidConsumerSession?
    let publishableKey: String?
    let errorMessage: String?

    enum CodingKeys: String, CodingKey {
        case exists, consumerSession = "consumer_session", publishableKey = "publishable_key"
        case errorMessage = "error_message"
    }
}

/// `PM/parsers/ConsumerSessionSignupJsonParser.kt` (654edc21): null (a failed call) without `account_id`.
struct AndroidSignUpResponse: Decodable {
    let accountId: String
    let consumerSession: AndroidConsumerSession
    let publishableKey: String?

    enum CodingKeys: String, CodingKey {
        case accountId = "account_id", consumerSession = "consumer_session", publishableKey = "publishable_key"
    }
}

/// `PM/parsers/ConsumerSessionRefreshJsonParser.kt` (cf9e48f7) and the session answers of verification,
/// phone change and log out: `consumer_session` required.
struct AndroidSessionResponse: Decodable {
    let consumerSession: AndroidConsumerSession

    enum CodingKeys: String, CodingKey { case consumerSession = "consumer_session" }
}

/// `PM/parsers/ElementsSessionJsonParser.kt` (07b7e853): null unless `payment_method_preference` is an object
/// with `object: "payment_method_preference"`.
struct AndroidElementsSession: Decodable {
    struct Preference: Decodable {
        let object: String
        let orderedPaymentMethodTypes: [String]?

        enum CodingKeys: String, CodingKey {
            case object, orderedPaymentMethodTypes = "ordered_payment_method_types"
        }
    }
    struct LinkSettings: Decodable {
        let linkMobileUseAttestationEndpoints: Bool?

        enum CodingKeys: String, CodingKey {
            case linkMobileUseAttestationEndpoints = "link_mobile_use_attestation_endpoints"
        }
    }
    let paymentMethodPreference: Preference
    let linkSettings: LinkSettings?

    enum CodingKeys: String, CodingKey {
        case paymentMethodPreference = "payment_method_preference", linkSettings = "link_settings"
    }
}

/// `CO/model/CryptoCustomerResponse.kt` (b0989419), `CO/model/CreatePaymentTokenResponse.kt`: `id`.
struct AndroidIdResponse: Decodable { let id: String }

/// `CO/model/KycRetrieveResponse.kt` (dd412601, 12f1bf39): `first_name`, `last_name` non-null;
/// `id_number_last4`, `id_type` nullable without defaults (present); `dob` (`DateOfBirthSerializer.kt` at
/// ba838785) with Int `day`, `month`, `year`; `address` (`PaymentSheetAddressSerializer.kt` at 914a1d1f), all
/// optional with defaults.
struct AndroidKycRetrieveResponse: Decodable {
    struct DateOfBirth: Decodable {
        let day: Int
        let month: Int
        let year: Int
    }
    struct Address: Decodable {
        let city: String?
        let country: String?
        let line1: String?
        let line2: String?
        let zip: String?
        let state: String?
    }
    let firstName: String
    let lastName: String
    let idNumberLast4: String?
    let idType: String?
    let dob: DateOfBirth
    let address: Address?

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name", lastName = "last_name", idNumberLast4 = "id_number_last4"
        case idType = "id_type", dob, address
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.requirePresent(.idNumberLast4)
        try container.requirePresent(.idType)
        firstName = try container.decode(String.self, forKey: .firstName)
        lastName = try container.decode(String.self, forKey: .lastName)
        idNumberLast4 = try container.decode(String?.self, forKey: .idNumberLast4)
        idType = try container.decode(String?.self, forKey: .idType)
        dob = try container.decode(DateOfBirth.self, forKey: .dob)
        address = try container.decodeIfPresent(Address.self, forKey: .address)
    }
}

/// `CO/model/StartIdentityVerificationResponse.kt` (27de20fe): `id`, `url`; `ephemeral_key` present.
struct AndroidStartIdentityVerificationResponse: Decodable {
    let id: String
    let url: String
    let ephemeralKey: String?

    enum CodingKeys: String, CodingKey { case id, url, ephemeralKey = "ephemeral_key" }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.requirePresent(.ephemeralKey)
        id = try container.decode(String.self, forKey: .id)
        url = try container.decode(String.self, forKey: .url)
        ephemeralKey = try container.decode(String?.self, forKey: .ephemeralKey)
    }
}

/// `CO/model/PlatformSettingsResponse.kt`: `publishable_key`.
struct AndroidPlatformSettings: Decodable {
    let publishableKey: String

    enum CodingKeys: String, CodingKey { case publishableKey = "publishable_key" }
}

/// `CO/model/GetOnrampSessionResponse.kt` (157fcfbf, 839999c7).
struct AndroidOnrampSession: Decodable {
    let id: String
    let clientSecret: String
    let paymentIntentClientSecret: String

    enum CodingKeys: String, CodingKey {
        case id, clientSecret = "client_secret", paymentIntentClientSecret = "payment_intent_client_secret"
    }
}

/// payments-core `PaymentIntentJsonParser.kt` (commit not identified): null unless `object` is
/// `payment_intent`; `status` by `StripeIntent.Status.fromCode`.
struct AndroidPaymentIntent: Decodable {
    let object: String
    let id: String
    let status: String
    let paymentMethodTypes: [String]

    enum CodingKeys: String, CodingKey {
        case object, id, status, paymentMethodTypes = "payment_method_types"
    }

    /// `OnrampInteractor` (`00e8f91a`): a card checkout completes on `succeeded` or `requires_capture`,
    /// `processing` only for `us_bank_account`.
    var completes: Bool {
        object == "payment_intent"
            && (["succeeded", "requires_capture"].contains(status)
                || (status == "processing" && paymentMethodTypes == ["us_bank_account"]))
    }
}

/// `PM/parsers/SharePaymentDetailsJsonParser.kt` (30246d2b): `payment_method` with `id`.
struct AndroidShareResponse: Decodable {
    struct PaymentMethod: Decodable { let id: String }
    let paymentMethod: PaymentMethod

    enum CodingKeys: String, CodingKey { case paymentMethod = "payment_method" }
}

/// `PM/parsers/ConsumerPaymentDetailsJsonParser.kt` (284f65ca): a card needs `id` and `card_details` with
/// `exp_year`, `exp_month`, `brand`, `last4`.
struct AndroidPaymentDetailsResponse: Decodable {
    struct Details: Decodable {
        struct Card: Decodable {
            let expYear: Int
            let expMonth: Int
            let brand: String
            let last4: String

            enum CodingKeys: String, CodingKey {
                case expYear = "exp_year", expMonth = "exp_month", brand, last4
            }
        }
        let id: String
        let cardDetails: Card

        enum CodingKeys: String, CodingKey { case id, cardDetails = "card_details" }
    }
    let redactedPaymentDetails: Details

    enum CodingKeys: String, CodingKey { case redactedPaymentDetails = "redacted_payment_details" }
}

/// Stripe's error body, as `StripeErrorJsonParser` reads it.
struct AndroidAPIError: Decodable {
    struct Detail: Decodable {
        let type: String?
        let code: String?
        let message: String?
        let param: String?
    }
    let error: Detail
}

/// `CO/model/RetrieveKycRequirementsResponse.kt` (9061dde6; `RetrieveAdditionalKycRequirementsResponse.kt` at
/// 13f0fb44 alike): `requirements`, a map of name → requirement with `requested_by`, `awaiting_action_from` and
/// `errors`; a `document` with every member but `max_files_per_document_type` required (each subtype's
/// `description` required at 13f0fb44); questions with `id`, `prompt`, `answer_type`, `required`.
struct AndroidKycRequirementsResponse: Decodable {
    struct Requirement: Decodable {
        struct ErrorEntry: Decodable {
            let code: String
            let description: String
        }
        struct Document: Decodable {
            struct Subtype: Decodable {
                let id: String
                let label: String
                let description: String
            }
            let acceptedSubtypes: [Subtype]
            let acceptedFormats: [String]
            let maxFileSizeBytes: Int64
            let minDocumentTypes: Int
            let maxDocumentTypes: Int
            let maxFilesPerDocumentType: Int?
            let fileRequirements: String
            let instructions: [String]

            enum CodingKeys: String, CodingKey {
                case acceptedSubtypes = "accepted_subtypes", acceptedFormats = "accepted_formats"
                case maxFileSizeBytes = "max_file_size_bytes", minDocumentTypes = "min_document_types"
                case maxDocumentTypes = "max_document_types", maxFilesPerDocumentType = "max_files_per_document_type"
                case fileRequirements = "file_requirements", instructions
            }
        }
        struct Additional: Decodable {
            struct Questionnaire: Decodable {
                struct Question: Decodable {
                    let id: String
                    let prompt: String
                    let answerType: String
                    let required: Bool

                    enum CodingKeys: String, CodingKey { case id, prompt, answerType = "answer_type", required }
                }
                let questions: [Question]
            }
            let questionnaire: Questionnaire?
        }
        let requestedBy: String
        let awaitingActionFrom: String
        let errors: [ErrorEntry]
        let document: Document?
        let additionalRequirements: Additional?

        enum CodingKeys: String, CodingKey {
            case requestedBy = "requested_by", awaitingActionFrom = "awaiting_action_from", errors, document
            case additionalRequirements = "additional_requirements"
        }
    }
    let requirements: [String: Requirement]
}

/// `CO/model/ComplianceIdentifierRequirementsResponse.kt` (fe68fa21) with
/// `ComplianceIdentifierRequirementResponse.kt` (6aa70880) and `ComplianceIdentifierAlternativeGroupResponse.kt`
/// (fe68fa21): `identifiers` and `alternatives` default to `[]`; each identifier's `type` non-blank and its
/// `regulation` one the SDK knows (`ComplianceRegulation.kt`: `eu_carf`, `eu_mica`); `SubmitIdentifiersResponse.kt`
/// (fe68fa21) adds `valid` (default true) and `invalid_identifiers`.
struct AndroidIdentifierRequirements: Decodable {
    struct Identifier: Decodable, Equatable {
        enum Regulation: String, Decodable { case euCarf = "eu_carf", euMica = "eu_mica" }
        let type: String
        let regulation: Regulation
    }
    struct Alternative: Decodable, Equatable {
        let originalMissingIdentifiers: [String]
        let alternativeMissingIdentifiers: [String]

        enum CodingKeys: String, CodingKey {
            case originalMissingIdentifiers = "original_missing_identifiers"
            case alternativeMissingIdentifiers = "alternative_missing_identifiers"
        }
    }
    let identifiers: [Identifier]
    let alternatives: [Alternative]
    let valid: Bool
    let invalidIdentifiers: [String]

    enum CodingKeys: String, CodingKey {
        case identifiers, alternatives, valid, invalidIdentifiers = "invalid_identifiers"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifiers = try container.decodeIfPresent([Identifier].self, forKey: .identifiers) ?? []
        alternatives = try container.decodeIfPresent([Alternative].self, forKey: .alternatives) ?? []
        valid = try container.decodeIfPresent(Bool.self, forKey: .valid) ?? true
        invalidIdentifiers = try container.decodeIfPresent([String].self, forKey: .invalidIdentifiers) ?? []
        guard identifiers.allSatisfy({ !$0.type.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a blank identifier type"))
        }
    }
}

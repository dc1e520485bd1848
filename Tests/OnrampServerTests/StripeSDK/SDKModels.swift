import Foundation

// The answers of each call the StripeCryptoOnramp iOS SDK makes, declared with exactly the fields its
// decoders require (non-optional here) and decoded as `StripeJSONDecoder` does: property names are matched
// to snake_case keys, unknown keys are ignored. Enums that the SDK decodes "safely" are strict here, so a
// value the SDK would read as `.unparsable` fails the test. Each type names its stripe-ios file
// (`PS` = `StripePaymentSheet/StripePaymentSheet/Source/Internal/API Bindings/`,
// `CO` = `StripeCryptoOnramp/StripeCryptoOnramp/Source/Internal/API Bindings/`).

/// `PS/v1-elements-sessions/STPElementsSession.swift` (`session_id`, `payment_method_preference`
/// required; an older version also `apple_pay_preference`) and `StripePayments/…/Models/Shared/LinkSettings.swift`
/// (`link_funding_sources` required).
struct SDKElementsSession: Decodable {
    struct Preference: Decodable { let orderedPaymentMethodTypes: [String] }
    struct LinkSettings: Decodable {
        let linkFundingSources: [String]
        let linkMobileUseAttestationEndpoints: Bool?
        let linkPassthroughModeEnabled: Bool?
    }
    let sessionId: String
    let paymentMethodPreference: Preference
    let applePayPreference: String
    let linkSettings: LinkSettings?
}

/// `PS/v1-elements-sessions/MobileSessionV1.swift` (commit 81349f47, contract revision eae9b348c98cf67b,
/// major 1): `MobilePaymentElementV1` with its required members (`contract`, `payment_method_availability`
/// and each entry's `payment_method_type` and `available`; the rest defaults), decoded as the generated decoder
/// does.
struct SDKMobilePaymentElement: Decodable {
    struct Contract: Decodable {
        let major: Int
        let revision: String
    }
    struct Availability: Decodable {
        struct Entry: Decodable {
            let paymentMethodType: String
            let available: Bool
            let reason: String?
        }
        let entries: [Entry]
    }
    struct Features: Decodable {
        let financialConnectionsLite: String?
        let linkGlobalHoldbackLookup: Bool?
        let forceVerticalPaymentMethodLayout: Bool?
        let cardFundingFiltering: Bool?
    }
    struct Assets: Decodable {
        struct PaymentMethod: Decodable {
            let paymentMethodType: String
            let locale: String?
            let displayName: String
        }
        let paymentMethods: [PaymentMethod]?
    }
    let contract: Contract
    let paymentMethodAvailability: Availability
    let features: Features?
    let assets: Assets?
}

/// The elements session as the 2026 SDK reads it (`retrieveMobileSessionElementsSession`):
/// ``SDKElementsSession`` plus `mobile_payment_element`, checked with ``SDKMobileSessionContract``.
struct SDKMobileElementsSession: Decodable {
    let sessionId: String
    let mobilePaymentElement: SDKMobilePaymentElement
}

/// `validateMobileSessionContractResponse` (`PS/STPAPIClient+PaymentSheet.swift`, the version defining
/// `MobileSessionContractError`): the answer's header and body checked in the SDK's order, each failure named
/// by its `analyticsErrorCode`.
enum SDKMobileSessionContract {
    static let headerName = "Stripe-Mobile-Session-Contract"
    static let major = 1
    static let revision = "eae9b348c98cf67b"
    static var requestHeader: String { "major=\(major); revision=\(revision)" }

    /// `nil` when the SDK accepts the answer, else the analytics code it fails with.
    static func failure(header: String?, body: [UInt8]) -> String? {
        guard let header else { return "missing_response_header" }
        let parts = header.components(separatedBy: "; ")
        guard parts.count == 2, parts[0].hasPrefix("major="), parts[1].hasPrefix("revision="),
            String(parts[0].dropFirst(6)) == String(major), isRevision(String(parts[1].dropFirst(9)))
        else { return "malformed_response_header" }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            object["mobile_payment_element"] is [String: Any]
        else { return "missing_payload" }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let session = try? decoder.decode(SDKMobileElementsSession.self, from: Data(body)) else {
            return "decode_failure"
        }
        let contract = session.mobilePaymentElement.contract
        guard contract.major == major else { return "unsupported_contract_major" }
        guard isRevision(contract.revision) else { return "invalid_contract_revision" }
        guard header == "major=\(contract.major); revision=\(contract.revision)" else {
            return "response_header_body_mismatch"
        }
        return nil
    }

    private static func isRevision(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// `PS/Link/VerificationSession.swift` (commit 082bd31b adds `LINK_AUTH_TOKEN`).
struct SDKVerificationSession: Decodable, Equatable {
    enum SessionType: String, Decodable {
        case signup = "SIGNUP", email = "EMAIL", sms = "SMS", linkAuthToken = "LINK_AUTH_TOKEN"
    }
    enum SessionState: String, Decodable {
        case started = "STARTED", failed = "FAILED", verified = "VERIFIED", canceled = "CANCELED", expired = "EXPIRED"
    }
    let type: SessionType
    let state: SessionState
}

/// `PS/Link/ConsumerSession.swift` (commit 467e9417).
struct SDKConsumerSession: Decodable {
    let clientSecret: String
    let emailAddress: String
    let redactedFormattedPhoneNumber: String
    let verificationSessions: [SDKVerificationSession]?
    let supportPaymentDetailsTypes: [String]?

    /// `PaymentSheetLinkAccount.sessionState == .verified`: what lets the SDK send `crypto/internal/*` calls.
    var isVerified: Bool {
        (verificationSessions ?? []).contains {
            ($0.type == .sms && $0.state == .verified) || ($0.type == .signup && $0.state == .started)
                || ($0.type == .linkAuthToken && $0.state == .verified)
        }
    }
}

/// `PS/Link/LinkConsentDataModel.swift` (commit f7844f88).
struct SDKLinkConsent: Decodable {
    struct Pane: Decodable {
        struct ScopesSection: Decodable {
            struct Scope: Decodable {
                let header: String?
                let description: String
            }
            let header: String
            let scopes: [Scope]
        }
        let title: String
        let scopesSection: ScopesSection?
        let disclaimer: String?
        let denyButtonLabel: String?
        let allowButtonLabel: String
    }
    struct Section: Decodable { let disclaimer: String }
    let consentPane: Pane?
    let consentSection: Section?
}

/// `PS/Link/ConsumerSession+LookupResponse.swift` (commit c1dc94d9): `exists` required; when it is true the
/// body is also a `SessionWithPublishableKey`.
struct SDKLookupResponse: Decodable {
    let exists: Bool
    let errorMessage: String?
    let consentUi: SDKLinkConsent?
}

/// `PS/Link/ConsumerSession+PublishableKey.swift` (commit 567f615b; `publishable_key` non-optional in all
/// five known versions).
struct SDKSessionWithPublishableKey: Decodable {
    let consumerSession: SDKConsumerSession
    let publishableKey: String
    let authSessionClientSecret: String?
}

/// `STPAPIClient+Link.swift` `SessionResponse`: start/confirm verification, refresh, log out.
struct SDKSessionResponse: Decodable { let consumerSession: SDKConsumerSession }

/// `CO/CustomerResponse.swift` (commit 0a5f2e40).
struct SDKCustomerResponse: Decodable { let id: String }

/// `CO/KYCDataCollectionResponse.swift`, the union of its versions: commit 13cc52dd requires all five
/// (`nationalities` an array of strings), commit 69ac90f9 only `person_id`.
struct SDKKYCDataCollectionResponse: Decodable {
    let personId: String
    let firstName: String
    let lastName: String
    let nationalities: [String]
    let residenceCountry: String
}

/// `CO/RetrieveKYCInfoResponse.swift` (commit 1df81295).
struct SDKRetrieveKYCInfoResponse: Decodable {
    struct DateOfBirth: Decodable {
        let day: Int
        let month: Int
        let year: Int
    }
    struct Address: Decodable {
        let line1: String
        let line2: String?
        let city: String
        let state: String
        let zip: String
        let country: String
    }
    enum IdType: String, Decodable {
        case socialSecurityNumber = "social_security_number", caSin = "ca_sin", coNit = "co_nit", phTin = "ph_tin"
    }
    let firstName: String
    let lastName: String?
    let dob: DateOfBirth
    let idNumberLast4: String
    let idType: IdType
    let address: Address
}

/// `CO/StartIdentityVerificationResponse.swift` (commit 6625f64d): `url` must parse as a URL.
struct SDKStartIdentityVerificationResponse: Decodable {
    let id: String
    let url: String
    let ephemeralKey: String
}

/// `CO/RegisterWalletResponse.swift` (commit a55a9d2c).
struct SDKRegisterWalletResponse: Decodable {
    let id: String
    let walletAddress: String?
    let network: String?
}

/// `CO/PlatformSettingsResponse.swift` (commit ddfabb94).
struct SDKPlatformSettingsResponse: Decodable { let publishableKey: String }

/// `CO/CreatePaymentTokenResponse.swift`.
struct SDKCreatePaymentTokenResponse: Decodable { let id: String }

/// `CO/OnrampSessionResponse.swift` (commit ddfabb94).
struct SDKOnrampSessionResponse: Decodable {
    let id: String
    let clientSecret: String
    let paymentIntentClientSecret: String
}

/// `StripePayments/…/Models/PaymentIntents/STPPaymentIntent.swift` `decodedObject` (commit 7074df7b) and
/// `STPIntentAction.swift` / `STPIntentActionRedirectToURL.swift` for `next_action`.
struct SDKPaymentIntent: Decodable {
    enum Status: String, Decodable {
        case requiresPaymentMethod = "requires_payment_method", requiresConfirmation = "requires_confirmation"
        case requiresAction = "requires_action", processing, succeeded, requiresCapture = "requires_capture"
        case canceled
    }
    struct NextAction: Decodable {
        struct RedirectToURL: Decodable {
            let url: String
            let returnUrl: String?
        }
        let type: String
        let redirectToUrl: RedirectToURL?
    }
    struct LastPaymentError: Decodable {
        let type: String
        let code: String?
    }
    let id: String
    let clientSecret: String
    let amount: Int
    let currency: String
    let status: Status
    let livemode: Bool
    let created: Int
    let paymentMethodTypes: [String]
    let nextAction: NextAction?
    let lastPaymentError: LastPaymentError?

    /// `CryptoOnrampCoordinator`'s private `STPPaymentIntent.checkoutResult` (commit 00bc96b9): `true`
    /// completes, `false` is `paymentFailed`, `nil` (`requires_action`) has no result yet.
    var checkoutCompletes: Bool? {
        switch status {
        case .succeeded, .requiresCapture: true
        case .processing: paymentMethodTypes == ["us_bank_account"]
        case .requiresAction: nil
        default: false
        }
    }
}

/// `PS/Link/PaymentDetails.swift` (commit ac177978): `ConsumerPaymentDetails`.
struct SDKConsumerPaymentDetails: Decodable {
    struct Card: Decodable {
        enum Funding: String, Decodable { case credit = "CREDIT", debit = "DEBIT", prepaid = "PREPAID" }
        let expYear: Int
        let expMonth: Int
        let brand: String
        let networks: [String]
        let last4: String
        let funding: Funding
    }
    enum DetailsType: String, Decodable { case card = "CARD", bankAccount = "BANK_ACCOUNT" }
    let id: String
    let isDefault: Bool
    let type: DetailsType
    let cardDetails: Card?
}

/// `STPAPIClient+Link.swift` `DetailsResponse` and `DetailsListResponse`.
struct SDKDetailsResponse: Decodable { let redactedPaymentDetails: SDKConsumerPaymentDetails }
struct SDKDetailsListResponse: Decodable { let redactedPaymentDetails: [SDKConsumerPaymentDetails] }

/// `PS/Link/PaymentDetailsShareResponse.swift` (commit 6a35dcae) with `STPPaymentMethod.decodedObject`
/// (`id` required).
struct SDKPaymentDetailsShareResponse: Decodable {
    /// `STPPaymentMethod.decodedObject` at 00c6f775 requires `created` beside `id`.
    struct PaymentMethod: Decodable {
        let id: String
        let created: Int
        let type: String?
    }
    let paymentMethod: PaymentMethod
}

/// StripeApplePay `PaymentsCore/API/Models/Token.swift` (commit c1dc94d9).
struct SDKToken: Decodable {
    enum TokenType: String, Decodable {
        case account, bankAccount = "bank_account", card, pii, cvcUpdate = "cvc_update"
    }
    struct Card: Decodable {
        let last4: String
        let expMonth: Int
        let expYear: Int
        let brand: String
        let funding: String
    }
    let id: String
    let livemode: Bool
    let type: TokenType
    let card: Card?
}

/// StripeApplePay `PaymentsCore/API/Models/PaymentMethod.swift` (commit e6ca0e08).
struct SDKApplePayPaymentMethod: Decodable {
    struct Card: Decodable {
        enum Brand: String, Decodable { case visa, amex, mastercard, discover, jcb, diners, unionpay }
        let expMonth: Int
        let expYear: Int
        let brand: Brand
    }
    let id: String
    let livemode: Bool
    let card: Card?
}

/// The error StripeCore reads when a body does not decode (`StripeError.apiError`).
struct SDKAPIError: Decodable {
    struct Detail: Decodable {
        let type: String
        let code: String?
        let message: String?
        let param: String?
    }
    let error: Detail
}

/// StripeIdentity `Models/VerificationPage/VerificationPage.swift` with its static-content types (the keys of
/// the oldest and the newest versions; see `VerificationPageContent` on the server).
struct SDKVerificationPage: Decodable {
    enum FieldType: String, Decodable {
        case biometricConsent = "biometric_consent", face, idDocumentBack = "id_document_back"
        case idDocumentFront = "id_document_front", idDocumentType = "id_document_type", idNumber = "id_number"
        case dob, name, address, phoneNumber = "phone_number"
    }
    enum Status: String, Decodable { case canceled, processing, requiresInput = "requires_input", verified }
    struct Requirements: Decodable { let missing: Set<FieldType> }
    struct Consent: Decodable {
        let acceptButtonText: String
        let declineButtonText: String
        let privacyPolicy: String
    }
    struct DocumentSelect: Decodable {
        let idDocumentTypeAllowlist: [String: String]
        let title: String
    }
    struct DocumentCapture: Decodable {
        struct Models: Decodable {
            let idDetectorMinIou: Double
            let idDetectorMinScore: Double
            let idDetectorUrl: String
        }
        let autocaptureTimeout: Int
        let filePurpose: String
        let highResImageCompressionQuality: Double
        let highResImageCropPadding: Double
        let highResImageMaxDimension: Int
        let iosIdCardBackBarcodeTimeout: Int
        let iosIdCardBackCountryBarcodeSymbologies: [String: String]
        let lowResImageCompressionQuality: Double
        let lowResImageMaxDimension: Int
        let motionBlurMinDuration: Int
        let motionBlurMinIou: Double
        let requireLiveCapture: Bool
        let models: Models
    }
    struct Selfie: Decodable {
        struct Models: Decodable {
            let faceDetectorMinIou: Double
            let faceDetectorMinScore: Double
            let faceDetectorUrl: String
        }
        let autocaptureTimeout: Int
        let filePurpose: String
        let maxCenteredThresholdX: Double
        let maxCoverageThreshold: Double
        let numSamples: Int
        let sampleInterval: Int
        let trainingConsentText: String
        let models: Models
    }
    struct TextPage: Decodable {
        let title: String
        let body: String
        let buttonText: String
    }
    struct Individual: Decodable {
        let addressCountries: [String: String]
        let idNumberCountries: [String: String]
        let buttonText: String
        let title: String
    }
    struct Welcome: Decodable {
        let getStartedButtonText: String
        let privacyPolicy: String
        let title: String
    }
    struct CountryNotListed: Decodable {
        let title: String
        let body: String
        let cancelButtonText: String
    }
    let id: String
    let livemode: Bool
    let status: Status
    let submitted: Bool
    let unsupportedClient: Bool
    let fallbackUrl: String
    let userSessionId: String
    let isStripe: Bool
    let skipSuccessPage: Bool
    let requirements: Requirements
    let biometricConsent: Consent
    let documentSelect: DocumentSelect
    let documentCapture: DocumentCapture
    let selfie: Selfie?
    let individual: Individual
    let individualWelcome: Welcome
    let countryNotListed: CountryNotListed
    let success: TextPage
}

/// StripeIdentity `Models/VerificationPageData/VerificationPageData.swift` (`closed` as the newest
/// controller reads it).
struct SDKVerificationPageData: Decodable {
    struct Requirements: Decodable {
        let errors: [[String: String]]
        let missing: Set<SDKVerificationPage.FieldType>
    }
    let id: String
    let status: SDKVerificationPage.Status
    let submitted: Bool
    let closed: Bool
    let requirements: Requirements
}

/// StripeCore `API Bindings/Models/StripeFile.swift` (commit 27d258c).
struct SDKStripeFile: Decodable {
    let id: String
    let created: Int
    let purpose: String
    let size: Int
}

/// `Source/Components/WalletOwnershipChallenge.swift` (81b138f): every field a required string.
struct SDKWalletOwnershipChallenge: Decodable {
    let challengeId: String
    let walletAddress: String
    let network: String
    let message: String
    let expiresAt: String
}

/// `CryptoConsumerWallet`, the wallet ownership verification's answer.
struct SDKCryptoConsumerWallet: Decodable {
    let id: String
    let walletAddress: String
    let network: String
    let verifiedOwnership: Bool
}

/// `UserAttestation.swift`: the CRS/CARF declaration.
struct SDKUserAttestation: Decodable {
    let text: String
    let version: String
}

/// `PartnerTerms.swift`: `partner` and `declaration` required when `required` is true.
struct SDKPartnerTerms: Decodable {
    struct Declaration: Decodable {
        enum DeclarationType: String, Decodable {
            case transactionTerms = "transaction_terms", termsOfService = "terms_of_service"
        }
        let id: String
        let type: DeclarationType
        let text: String
    }
    let required: Bool
    let partner: String?
    let declaration: Declaration?
}

/// The older `CO/PartnerTerms.swift` (commit bb549857 and one of unknown commit): when `required` is true,
/// `partner`, `version`, `text` and `declaration_id` are read flat (and `declaration_type` is sent as `terms`
/// or `tos`).
struct SDKOlderPartnerTerms: Decodable {
    let required: Bool
    let partner: String
    let version: String
    let text: String
    let declarationId: String
}

/// A Link consumer session as every Link answer carries it (`consumer_session`), in the shape both mobile
/// SDKs decode: stripe-ios `StripePaymentSheet/…/API Bindings/Link/ConsumerSession.swift` (required:
/// `client_secret`, `email_address`, `redacted_formatted_phone_number`) and `VerificationSession.swift`
/// (uppercase `type`/`state` raw values; the SDK reads any other spelling as unparsable), and stripe-android
/// `ConsumerSessionJsonParser.kt` at 12f1bf39 (`getString` on the same three and `redacted_phone_number`).
public struct LinkConsumerSession: WireObject, Codable, Equatable {
    /// One verification of the session.
    public struct Verification: Codable, Equatable, Sendable {
        /// How the session was (or is being) verified.
        public enum Kind: String, Codable, Sendable, CaseIterable {
            /// A fresh sign-up: the SDK counts `SIGNUP/STARTED` as signed in.
            case signUp = "SIGNUP"
            /// An email code (never issued here).
            case email = "EMAIL"
            /// The SMS one-time code.
            case sms = "SMS"
            /// Seamless sign-in with a `link_auth_token_client_secret`.
            case linkAuthToken = "LINK_AUTH_TOKEN"
        }

        /// Where the verification stands.
        public enum State: String, Codable, Sendable, CaseIterable {
            case started = "STARTED"
            case failed = "FAILED"
            case verified = "VERIFIED"
            case canceled = "CANCELED"
            case expired = "EXPIRED"
        }

        /// How.
        public var type: Kind
        /// Where it stands.
        public var state: State

        /// Creates a verification.
        public init(_ type: Kind, _ state: State) {
            self.type = type
            self.state = state
        }
    }

    /// The `consumer_session_client_secret` later calls send as `credentials[…]`.
    public var clientSecret: String
    /// The consumer's email address.
    public var emailAddress: String
    /// The phone number with all but its last digits hidden (`(•••) ••• ••23`).
    public var redactedFormattedPhoneNumber: String
    /// The E.164 phone number with all but its last two digits hidden (`+*********23`).
    public var redactedPhoneNumber: String
    /// The phone number's country (ISO 3166-1 alpha-2).
    public var phoneNumberCountry: String?
    /// The session's verifications; the SDK treats it as signed in only with `SMS/VERIFIED`,
    /// `SIGNUP/STARTED` or `LINK_AUTH_TOKEN/VERIFIED`.
    public var verificationSessions: [Verification]
    /// The payment details types the consumer can add (`CARD`, `BANK_ACCOUNT`).
    public var supportPaymentDetailsTypes: [String]
    /// The link session key (`lsk_…`) the newest Android SDK sends on the KYC calls that take one.
    public var linkSessionKey: String?

    enum CodingKeys: String, CodingKey {
        case clientSecret = "client_secret"
        case emailAddress = "email_address"
        case redactedFormattedPhoneNumber = "redacted_formatted_phone_number"
        case redactedPhoneNumber = "redacted_phone_number"
        case phoneNumberCountry = "phone_number_country"
        case verificationSessions = "verification_sessions"
        case supportPaymentDetailsTypes = "support_payment_details_types"
        case linkSessionKey = "link_session_key"
    }

    /// Creates a session object.
    public init(
        clientSecret: String, emailAddress: String, redactedFormattedPhoneNumber: String, redactedPhoneNumber: String,
        phoneNumberCountry: String?, verificationSessions: [Verification],
        supportPaymentDetailsTypes: [String] = ["CARD", "BANK_ACCOUNT"], linkSessionKey: String? = nil
    ) {
        self.linkSessionKey = linkSessionKey
        self.clientSecret = clientSecret
        self.emailAddress = emailAddress
        self.redactedFormattedPhoneNumber = redactedFormattedPhoneNumber
        self.redactedPhoneNumber = redactedPhoneNumber
        self.phoneNumberCountry = phoneNumberCountry
        self.verificationSessions = verificationSessions
        self.supportPaymentDetailsTypes = supportPaymentDetailsTypes
    }

    /// `(•••) ••• ••23` for a number ending in 23, as Link shows it.
    public static func redacted(phone: String) -> String {
        "(•••) ••• ••" + String(phone.suffix(2))
    }

    /// `+*********23` for the E.164 number `+14155550123`: every digit but the last two hidden.
    public static func redactedE164(phone: String) -> String {
        let digits = phone.filter { $0.isASCII && $0.isNumber }
        return "+" + String(repeating: "*", count: max(0, digits.count - 2)) + String(digits.suffix(2))
    }

    public static let schema = APISchema.object(
        [
            "client_secret": .string, "email_address": .string, "redacted_formatted_phone_number": .string,
            "redacted_phone_number": .string, "phone_number_country": .string(minLength: 2, maxLength: 2),
            "verification_sessions": .array(
                .object(
                    [
                        "type": .enumeration(Verification.Kind.allCases.map(\.rawValue)),
                        "state": .enumeration(Verification.State.allCases.map(\.rawValue)),
                    ], required: ["type", "state"])),
            "support_payment_details_types": .array(.enumeration(["CARD", "BANK_ACCOUNT"])),
            "link_session_key": .string(pattern: "^lsk_[0-9a-f]{48}$"),
        ],
        required: [
            "client_secret", "email_address", "redacted_formatted_phone_number", "redacted_phone_number",
            "verification_sessions", "support_payment_details_types",
        ])
}

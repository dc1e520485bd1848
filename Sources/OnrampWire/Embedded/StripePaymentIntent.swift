/// The `payment_intent` object behind an onramp session's checkout, in the shape stripe-ios decodes
/// (`StripePayments/…/Models/PaymentIntents/STPPaymentIntent.swift`: `id`, `client_secret`, `amount`, `currency`,
/// `status`, `livemode`, `created`, `payment_method_types` required). The server writes it; the app SDK reads
/// it to decide a checkout.
public struct StripePaymentIntent: WireObject, Codable, Equatable {
    /// Where the intent stands.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case requiresPaymentMethod = "requires_payment_method"
        case requiresConfirmation = "requires_confirmation"
        case requiresAction = "requires_action"
        case requiresCapture = "requires_capture"
        case processing
        case succeeded
        case canceled
    }

    /// The payment method: its id, or the object itself when the request expanded it (`expand[0]=payment_method`).
    public enum PaymentMethod: Codable, Equatable, Sendable {
        case id(String)
        case expanded(StripePaymentMethod)

        /// The method's id either way.
        public var id: String {
            switch self {
            case .id(let id): id
            case .expanded(let method): method.id
            }
        }

        /// Reads an id or an object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = try? container.decode(String.self) {
                self = .id(id)
            } else {
                self = .expanded(try container.decode(StripePaymentMethod.self))
            }
        }

        /// Writes the id, or the object as it writes itself (its own absent members left out).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .id(let id): try container.encode(id)
            case .expanded(let method): try container.encode(method.json)
            }
        }
    }

    /// Why the last attempt failed (`STPPaymentIntentLastPaymentError` requires `type`).
    public struct LastPaymentError: Codable, Equatable, Sendable {
        /// `card_error`.
        public var type: String
        /// `card_declined`, `payment_intent_authentication_failure`, …
        public var code: String?
        /// The issuer's reason, for a decline; left out otherwise.
        public var declineCode: String?
        /// For the customer.
        public var message: String?

        enum CodingKeys: String, CodingKey {
            case type, code, declineCode = "decline_code", message
        }

        /// A payment error.
        public init(type: String, code: String?, declineCode: String?, message: String?) {
            self.type = type
            self.code = code
            self.declineCode = declineCode
            self.message = message
        }
    }

    /// `pi_…`.
    public var id: String
    /// Always `payment_intent`.
    public var object: String
    /// The amount in the currency's minor units.
    public var amount: Int64
    /// `manual` for a card (captured at checkout), `automatic` for a bank debit.
    public var captureMethod: String
    /// `pi_…_secret_…`.
    public var clientSecret: String
    /// Always `automatic`.
    public var confirmationMethod: String
    /// Creation time, Unix seconds.
    public var created: Int64
    /// The currency (`usd`).
    public var currency: String
    /// Whether it belongs to live mode.
    public var livemode: Bool
    /// `card` or `us_bank_account`.
    public var paymentMethodTypes: [String]
    /// Where it stands.
    public var status: Status
    /// The payment method, `null` before there is one.
    public var paymentMethod: PaymentMethod?
    /// The 3-D Secure page, while the intent requires it.
    public var nextAction: CryptoOnrampSession.NextAction?
    /// Why the last attempt failed.
    public var lastPaymentError: LastPaymentError?

    enum CodingKeys: String, CodingKey {
        case id, object, amount, captureMethod = "capture_method", clientSecret = "client_secret"
        case confirmationMethod = "confirmation_method", created, currency, livemode
        case paymentMethodTypes = "payment_method_types", status, paymentMethod = "payment_method"
        case nextAction = "next_action", lastPaymentError = "last_payment_error"
    }

    /// An intent.
    public init(
        id: String, amount: Int64, captureMethod: String, clientSecret: String, created: Int64, currency: String,
        livemode: Bool, paymentMethodTypes: [String], status: Status, paymentMethod: PaymentMethod?,
        nextAction: CryptoOnrampSession.NextAction?, lastPaymentError: LastPaymentError?
    ) {
        self.id = id
        object = "payment_intent"
        self.amount = amount
        self.captureMethod = captureMethod
        self.clientSecret = clientSecret
        confirmationMethod = "automatic"
        self.created = created
        self.currency = currency
        self.livemode = livemode
        self.paymentMethodTypes = paymentMethodTypes
        self.status = status
        self.paymentMethod = paymentMethod
        self.nextAction = nextAction
        self.lastPaymentError = lastPaymentError
    }

    /// Absent members are `null`, but an error's `decline_code`, which only a decline has.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.nullLeavingOut(["decline_code"])

    /// What an intent always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("payment_intent"), "amount": .integer, "capture_method": .string,
            "client_secret": .string, "confirmation_method": .string, "created": .integer, "currency": .string,
            "livemode": .boolean, "payment_method_types": .array(.string),
            "status": .enumeration(Status.allCases.map(\.rawValue)),
            "payment_method": APISchema.anyOf([.string, StripePaymentMethod.schema]).nullable,
            "next_action": CryptoOnrampSession.NextAction.schema.nullable,
            "last_payment_error": APISchema.object(
                ["type": .string, "code": .string, "decline_code": .string, "message": .string], required: ["type"]
            ).nullable,
        ],
        required: [
            "id", "object", "amount", "client_secret", "created", "currency", "livemode", "payment_method_types",
            "status",
        ])
}

/// A Link consumer's saved payment details, redacted, as stripe-ios's `ConsumerPaymentDetails` decodes them
/// (`redacted_payment_details`): a card's brand, last 4, expiry and networks, or a bank account's bank and last 4,
/// with the billing details given.
public struct ConsumerPaymentDetails: WireObject, Codable, Equatable {
    /// A card's details.
    public struct CardDetails: Codable, Equatable, Sendable {
        /// The checks the card passed.
        public struct Checks: Codable, Equatable, Sendable {
            /// `PASS`.
            public var cvcCheck: String

            enum CodingKeys: String, CodingKey {
                case cvcCheck = "cvc_check"
            }
        }

        /// The brand, upper case (`VISA`).
        public var brand: String
        /// The number's last 4 digits.
        public var last4: String
        /// Expiry month.
        public var expMonth: Int
        /// Expiry year.
        public var expYear: Int
        /// The networks the card runs on.
        public var networks: [String]
        /// `CREDIT`, `DEBIT`, …
        public var funding: String
        /// The checks it passed.
        public var checks: Checks

        enum CodingKeys: String, CodingKey {
            case brand, last4, expMonth = "exp_month", expYear = "exp_year", networks, funding, checks
        }

        /// A card's details, its CVC checked.
        public init(brand: String, last4: String, expMonth: Int, expYear: Int, networks: [String], funding: String) {
            self.brand = brand
            self.last4 = last4
            self.expMonth = expMonth
            self.expYear = expYear
            self.networks = networks
            self.funding = funding
            checks = Checks(cvcCheck: "PASS")
        }
    }

    /// A bank account's details.
    public struct BankAccountDetails: Codable, Equatable, Sendable {
        /// The bank.
        public var bankName: String
        /// The account number's last 4 digits.
        public var last4: String

        enum CodingKeys: String, CodingKey {
            case bankName = "bank_name", last4
        }

        /// A bank account's details.
        public init(bankName: String, last4: String) {
            self.bankName = bankName
            self.last4 = last4
        }
    }

    /// The details' id.
    public var id: String
    /// `CARD` or `BANK_ACCOUNT`.
    public var type: String
    /// Whether these are the consumer's default.
    public var isDefault: Bool
    /// The billing email, when one was given.
    public var billingEmailAddress: String?
    /// The billing address, when one was given.
    public var billingAddress: OrderedStringMap?
    /// A card's details.
    public var cardDetails: CardDetails?
    /// A bank account's details.
    public var bankAccountDetails: BankAccountDetails?

    enum CodingKeys: String, CodingKey {
        case id, type, isDefault = "is_default", billingEmailAddress = "billing_email_address"
        case billingAddress = "billing_address", cardDetails = "card_details"
        case bankAccountDetails = "bank_account_details"
    }

    /// Saved payment details.
    public init(
        id: String, isDefault: Bool, billingEmailAddress: String?, billingAddress: OrderedStringMap?,
        cardDetails: CardDetails?, bankAccountDetails: BankAccountDetails?
    ) {
        self.id = id
        type = bankAccountDetails == nil ? "CARD" : "BANK_ACCOUNT"
        self.isDefault = isDefault
        self.billingEmailAddress = billingEmailAddress
        self.billingAddress = billingAddress
        self.cardDetails = cardDetails
        self.bankAccountDetails = bankAccountDetails
    }

    /// What saved details always hold.
    public static let schema = APISchema.object(
        [
            "id": .string, "type": .enumeration(["CARD", "BANK_ACCOUNT"]), "is_default": .boolean,
            "billing_email_address": .string, "billing_address": .map(.string),
            "card_details": .object(
                [
                    "brand": .string, "last4": .string, "exp_month": .integer, "exp_year": .integer,
                    "networks": .array(.string), "funding": .string,
                    "checks": .object(["cvc_check": .string], required: ["cvc_check"]),
                ], required: ["brand", "last4", "exp_month", "exp_year", "networks", "funding"]),
            "bank_account_details": .object(
                ["bank_name": .string, "last4": .string], required: ["bank_name", "last4"]),
        ], required: ["id", "type", "is_default"])
}

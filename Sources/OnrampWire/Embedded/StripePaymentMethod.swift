/// Stripe's `payment_method` object (stripe-node's `PaymentMethod`), as far as the sandbox's test cards and bank
/// accounts fill it: a card (brand, expiry, funding, last 4, the wallet that tokenized it) or a US bank account.
/// Only the member of its `type` is written.
public struct StripePaymentMethod: WireObject, Codable, Equatable {
    /// A card's details (never its number).
    public struct Card: Codable, Equatable, Sendable {
        /// The wallet that tokenized the card.
        public struct Wallet: Codable, Equatable, Sendable {
            /// `apple_pay`, `google_pay`, …
            public var type: String

            /// A wallet of `type`.
            public init(type: String) {
                self.type = type
            }
        }

        /// `visa`, `mastercard`, `amex` or `unknown`.
        public var brand: String
        /// Expiry month, 1 to 12.
        public var expMonth: Int
        /// Expiry year.
        public var expYear: Int
        /// `credit`, `debit`, …
        public var funding: String
        /// The number's last 4 digits.
        public var last4: String
        /// The wallet that tokenized it; `null` for a card typed in.
        public var wallet: Wallet?
        /// The network the consumer prefers (set through Link's payment details); left out until set.
        public var preferredNetwork: String?

        enum CodingKeys: String, CodingKey {
            case brand, expMonth = "exp_month", expYear = "exp_year", funding, last4, wallet
            case preferredNetwork = "preferred_network"
        }

        /// A card's details.
        public init(
            brand: String, expMonth: Int, expYear: Int, funding: String, last4: String, wallet: Wallet?,
            preferredNetwork: String? = nil
        ) {
            self.brand = brand
            self.expMonth = expMonth
            self.expYear = expYear
            self.funding = funding
            self.last4 = last4
            self.wallet = wallet
            self.preferredNetwork = preferredNetwork
        }

        /// What a card always holds.
        public static let schema = APISchema.object(
            [
                "brand": .string, "exp_month": .integer, "exp_year": .integer, "funding": .string, "last4": .string,
                "wallet": APISchema.object(["type": .string], required: ["type"]).nullable,
                "preferred_network": .string,
            ], required: ["brand", "exp_month", "exp_year", "funding", "last4", "wallet"])
    }

    /// A US bank account's details (never its number).
    public struct USBankAccount: Codable, Equatable, Sendable {
        /// `checking` or `savings`.
        public var accountType: String
        /// The bank.
        public var bankName: String
        /// The account number's last 4 digits.
        public var last4: String
        /// The routing number.
        public var routingNumber: String

        enum CodingKeys: String, CodingKey {
            case accountType = "account_type", bankName = "bank_name", last4, routingNumber = "routing_number"
        }

        /// A bank account's details.
        public init(accountType: String, bankName: String, last4: String, routingNumber: String) {
            self.accountType = accountType
            self.bankName = bankName
            self.last4 = last4
            self.routingNumber = routingNumber
        }

        /// What a bank account always holds.
        public static let schema = APISchema.object(
            ["account_type": .string, "bank_name": .string, "last4": .string, "routing_number": .string],
            required: ["account_type", "bank_name", "last4", "routing_number"])
    }

    /// `pm_…`.
    public var id: String
    /// Always `payment_method`.
    public var object: String
    /// Creation time, Unix seconds.
    public var created: Int64
    /// Whether it belongs to live mode.
    public var livemode: Bool
    /// `card` or `us_bank_account`.
    public var type: String
    /// The card, for a card.
    public var card: Card?
    /// The bank account, for a bank account.
    public var usBankAccount: USBankAccount?

    enum CodingKeys: String, CodingKey {
        case id, object, created, livemode, type, card, usBankAccount = "us_bank_account"
    }

    /// A payment method.
    public init(id: String, created: Int64, livemode: Bool, card: Card?, usBankAccount: USBankAccount?) {
        self.id = id
        object = "payment_method"
        self.created = created
        self.livemode = livemode
        type = usBankAccount == nil ? "card" : "us_bank_account"
        self.card = card
        self.usBankAccount = usBankAccount
    }

    /// A card's absent wallet is `null`; the member of the other type, and an unset preferred network, are left
    /// out.
    public static let nilEncoding = leavingOutTheOtherType

    /// `null` for absent members but the one of the other type and the unset preferred network.
    static let leavingOutTheOtherType = JSONValueEncoder.NilEncoding.nullLeavingOut([
        "card", "us_bank_account", "preferred_network",
    ])

    /// What a payment method always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("payment_method"), "created": .integer, "livemode": .boolean,
            "type": .enumeration(["card", "us_bank_account"]), "card": Card.schema,
            "us_bank_account": USBankAccount.schema,
        ], required: ["id", "object", "created", "livemode", "type"])
}

/// The `crypto.payment_token` object: a payment method made a crypto customer's, with the method's details.
public struct CryptoPaymentToken: WireObject, Codable, Equatable {
    /// `cpt_…`.
    public var id: String
    /// Always `crypto.payment_token`.
    public var object: String
    /// `card` or `us_bank_account`.
    public var type: String
    /// The card, for a card.
    public var card: StripePaymentMethod.Card?
    /// The bank account, for a bank account.
    public var usBankAccount: StripePaymentMethod.USBankAccount?

    enum CodingKeys: String, CodingKey {
        case id, object, type, card, usBankAccount = "us_bank_account"
    }

    /// A token of a card or a bank account.
    public init(id: String, card: StripePaymentMethod.Card?, usBankAccount: StripePaymentMethod.USBankAccount?) {
        self.id = id
        object = "crypto.payment_token"
        type = usBankAccount == nil ? "card" : "us_bank_account"
        self.card = card
        self.usBankAccount = usBankAccount
    }

    /// As a payment method's.
    public static let nilEncoding = StripePaymentMethod.leavingOutTheOtherType

    /// What a token always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.payment_token"),
            "type": .enumeration(["card", "us_bank_account"]), "card": StripePaymentMethod.Card.schema,
            "us_bank_account": StripePaymentMethod.USBankAccount.schema,
        ], required: ["id", "object", "type"])
}

/// Stripe's single-use card `token` (`POST /v1/tokens`), as StripeApplePay's `Token` decodes it: the first step
/// of an Apple Pay payment, which a payment method then spends.
public struct StripeCardToken: WireObject, Codable, Equatable {
    /// The card the token stands for.
    public struct Card: Codable, Equatable, Sendable {
        /// `card_…`.
        public var id: String
        /// Always `card`.
        public var object: String
        /// The brand as the card object names it (`Visa`, `American Express`).
        public var brand: String
        /// The number's last 4 digits.
        public var last4: String
        /// Expiry month.
        public var expMonth: Int
        /// Expiry year.
        public var expYear: Int
        /// `credit`, `debit`, …
        public var funding: String
        /// `apple_pay` for a card from Apple Pay; `null` for one typed in.
        public var tokenizationMethod: String?

        enum CodingKeys: String, CodingKey {
            case id, object, brand, last4, expMonth = "exp_month", expYear = "exp_year", funding
            case tokenizationMethod = "tokenization_method"
        }

        /// A token's card.
        public init(
            id: String, brand: String, last4: String, expMonth: Int, expYear: Int, funding: String,
            tokenizationMethod: String?
        ) {
            self.id = id
            object = "card"
            self.brand = brand
            self.last4 = last4
            self.expMonth = expMonth
            self.expYear = expYear
            self.funding = funding
            self.tokenizationMethod = tokenizationMethod
        }
    }

    /// `tok_…`.
    public var id: String
    /// Always `token`.
    public var object: String
    /// Always `card`.
    public var type: String
    /// Whether it belongs to live mode.
    public var livemode: Bool
    /// Creation time, Unix seconds.
    public var created: Int64
    /// Whether a payment method spent it (never, in the answer that made it).
    public var used: Bool
    /// The card.
    public var card: Card

    /// A new, unused card token.
    public init(id: String, livemode: Bool, created: Int64, card: Card) {
        self.id = id
        object = "token"
        type = "card"
        self.livemode = livemode
        self.created = created
        used = false
        self.card = card
    }

    /// A card typed in has a `null` tokenization method.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What a token always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("token"), "type": .constant("card"), "livemode": .boolean,
            "created": .integer, "used": .boolean,
            "card": .object(
                [
                    "id": .string, "object": .constant("card"), "brand": .string, "last4": .string,
                    "exp_month": .integer, "exp_year": .integer, "funding": .string,
                    "tokenization_method": APISchema.string.nullable,
                ], required: ["id", "brand", "last4", "exp_month", "exp_year", "funding"]),
        ], required: ["id", "object", "type", "livemode", "created", "card"])
}

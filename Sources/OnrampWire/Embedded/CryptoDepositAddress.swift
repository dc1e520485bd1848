/// The private-preview `crypto.deposit_address` object, as stripe-node's bindings type it: an on-chain address
/// a project's user can send stablecoins to, with the tokens it accepts.
public struct CryptoDepositAddress: WireObject, Codable, Equatable {
    /// A token the address accepts.
    public struct SupportedToken: Codable, Equatable, Sendable {
        /// The token's contract on the address's network.
        public var tokenContractAddress: String
        /// The token (`usdc`).
        public var tokenCurrency: String

        enum CodingKeys: String, CodingKey {
            case tokenContractAddress = "token_contract_address", tokenCurrency = "token_currency"
        }

        /// A supported token.
        public init(tokenContractAddress: String, tokenCurrency: String) {
            self.tokenContractAddress = tokenContractAddress
            self.tokenCurrency = tokenCurrency
        }

        /// What a supported token always holds.
        public static let schema = APISchema.object(
            ["token_contract_address": .string, "token_currency": .string],
            required: ["token_contract_address", "token_currency"])
    }

    /// `cda_…`.
    public var id: String
    /// Always `crypto.deposit_address`.
    public var object: String
    /// The address, in its network's form.
    public var address: String
    /// Creation time, Unix seconds.
    public var created: Int64
    /// The customer the address was made for; left out when none was named.
    public var customer: String?
    /// Whether it belongs to live mode.
    public var livemode: Bool
    /// The partner's metadata, in the order given.
    public var metadata: OrderedStringMap
    /// The network (`base`, `solana`).
    public var network: String
    /// The tokens it accepts.
    public var supportedTokens: [SupportedToken]

    enum CodingKeys: String, CodingKey {
        case id, object, address, created, customer, livemode, metadata, network
        case supportedTokens = "supported_tokens"
    }

    /// A deposit address.
    public init(
        id: String, address: String, created: Int64, customer: String?, livemode: Bool, metadata: OrderedStringMap,
        network: String, supportedTokens: [SupportedToken]
    ) {
        self.id = id
        object = "crypto.deposit_address"
        self.address = address
        self.created = created
        self.customer = customer
        self.livemode = livemode
        self.metadata = metadata
        self.network = network
        self.supportedTokens = supportedTokens
    }

    /// What an address always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.deposit_address"), "address": .string, "created": .integer,
            "customer": .string, "livemode": .boolean, "metadata": .map(.string), "network": .string,
            "supported_tokens": .array(SupportedToken.schema),
        ], required: ["id", "object", "address", "created", "livemode", "metadata", "network", "supported_tokens"])
}

/// The `crypto.consumer_wallet` object: a wallet address a crypto customer registered on a network.
public struct CryptoConsumerWallet: WireObject, Codable, Equatable {
    /// The wallet's id.
    public var id: String
    /// Always `crypto.consumer_wallet`.
    public var object: String
    /// Whether it belongs to live mode.
    public var livemode: Bool
    /// The network (`base`, `solana`, …).
    public var network: String
    /// Whether the customer proved they own the address.
    public var verifiedOwnership: Bool
    /// The address.
    public var walletAddress: String

    enum CodingKeys: String, CodingKey {
        case id, object, livemode, network, verifiedOwnership = "verified_ownership", walletAddress = "wallet_address"
    }

    /// A registered wallet.
    public init(id: String, livemode: Bool, network: String, verifiedOwnership: Bool, walletAddress: String) {
        self.id = id
        object = "crypto.consumer_wallet"
        self.livemode = livemode
        self.network = network
        self.verifiedOwnership = verifiedOwnership
        self.walletAddress = walletAddress
    }

    /// What a wallet always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.consumer_wallet"), "livemode": .boolean, "network": .string,
            "verified_ownership": .boolean, "wallet_address": .string,
        ], required: ["id", "object", "livemode", "network", "verified_ownership", "wallet_address"])
}

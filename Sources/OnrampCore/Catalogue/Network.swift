/// A blockchain network that assets are delivered on.
public struct Network: Sendable, Hashable, Codable {
    /// The canonical name (Coinbase spelling, for example `avalanche-c-chain`).
    public var id: String
    /// Other accepted names (Stripe spelling, for example `avalanche`).
    public var aliases: [String]
    /// The human-readable name.
    public var displayName: String
    /// The chain id as a string: the EIP-155 number on EVM chains, empty elsewhere.
    public var chainID: String
    /// The address syntax.
    public var addressFormat: AddressFormat

    /// Creates a network.
    public init(
        id: String, aliases: [String] = [], displayName: String, chainID: String,
        addressFormat: AddressFormat
    ) {
        self.id = id
        self.aliases = aliases
        self.displayName = displayName
        self.chainID = chainID
        self.addressFormat = addressFormat
    }

    /// Whether `name` is the id or one of the aliases (exact match).
    public func isNamed(_ name: String) -> Bool {
        id == name || aliases.contains(name)
    }
}

/// A crypto asset that can be purchased.
public struct Asset: Sendable, Hashable, Codable {
    /// Where the asset lives on one network.
    public struct Deployment: Sendable, Hashable, Codable {
        /// The network id.
        public var network: String
        /// The token contract, mint or issuer; empty for the network's native asset.
        public var contractAddress: String

        /// Creates a deployment.
        public init(network: String, contractAddress: String = "") {
            self.network = network
            self.contractAddress = contractAddress
        }
    }

    /// A stable UUID-shaped asset id, accepted wherever a ticker is.
    public var id: String
    /// The ticker, upper case (`USDC`).
    public var symbol: String
    /// Other tickers for the same asset (`MATIC` for `POL`).
    public var aliases: [String]
    /// The English name.
    public var name: String
    /// The places amounts of the asset are rounded to.
    public var decimals: Int
    /// The networks the asset is offered on.
    public var deployments: [Deployment]

    /// Creates an asset.
    public init(
        id: String, symbol: String, aliases: [String] = [], name: String, decimals: Int,
        deployments: [Deployment]
    ) {
        self.id = id
        self.symbol = symbol
        self.aliases = aliases
        self.name = name
        self.decimals = decimals
        self.deployments = deployments
    }

    /// The deployment on the network with id `networkID`, if any.
    public func deployment(on networkID: String) -> Deployment? {
        deployments.first { $0.network == networkID }
    }
}

/// A blockchain network for wallets and sessions.
public enum CryptoNetwork: String, Sendable, CaseIterable {
    /// Aptos (wallets only).
    case aptos
    /// Avalanche C-Chain.
    case avalanche
    /// Base.
    case base
    /// Bitcoin.
    case bitcoin
    /// Ethereum.
    case ethereum
    /// Optimism.
    case optimism
    /// Polygon.
    case polygon
    /// Solana.
    case solana
    /// Stellar.
    case stellar
    /// Sui.
    case sui
    /// World Chain.
    case worldchain
}

/// What a valid address turned out to be.
public enum AddressKind: Sendable, Hashable {
    /// An EVM account address.
    case evm
    /// A Solana public key.
    case solana
    /// A Bitcoin pay-to-public-key-hash address (version byte 0x00).
    case bitcoinP2PKH
    /// A Bitcoin pay-to-script-hash address (version byte 0x05).
    case bitcoinP2SH
    /// A Bitcoin segwit address with its witness version (0 is Bech32, 1 and above Bech32m).
    case bitcoinSegwit(version: Int)
    /// A Stellar account id.
    case stellar
    /// A 32-byte hex account address (Sui, Aptos).
    case hex32
    /// An XRP Ledger classic account address.
    case xrpl
}

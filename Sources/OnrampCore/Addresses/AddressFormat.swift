/// The address syntax a network uses.
public enum AddressFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// `0x` + 40 hex digits; EIP-55 checksum enforced when the letters are mixed case.
    case evm
    /// Base58 that decodes to a 32-byte ed25519 public key.
    case solana
    /// Bitcoin mainnet: Base58Check P2PKH/P2SH, or Bech32/Bech32m segwit with hrp `bc`.
    case bitcoin
    /// Stellar account id: `G…` StrKey, 56 characters.
    case stellar
    /// `0x` + 64 hex digits (Sui, Aptos).
    case hex32
    /// An XRP Ledger classic address: `r…`, Base58 with Ripple's alphabet over a version byte 0x00, a 20-byte
    /// account id and a 4-byte double-SHA-256 checksum.
    case xrpl
}

/// Makes random on-chain transaction identifiers shaped like the network's own, for simulated
/// settlement.
public struct TransactionHashGenerator: Sendable {
    private let random: any RandomSource

    /// Creates a generator drawing from `random`.
    public init(random: any RandomSource = SystemRandomSource()) {
        self.random = random
    }

    /// A transaction identifier for a network with `format`: `0x` + 64 hex on EVM chains and Aptos,
    /// 64 hex on Bitcoin and Stellar, 64 upper-case hex on the XRP Ledger, a Base58 64-byte signature on
    /// Solana, a Base58 32-byte digest on Sui.
    public func hash(for format: AddressFormat, networkID: String = "") -> String {
        switch format {
        case .evm: return "0x" + hex(random.bytes(32))
        case .bitcoin, .stellar: return hex(random.bytes(32))
        case .xrpl: return hex(random.bytes(32)).uppercased()
        case .solana: return Base58.encode(random.bytes(64))
        case .hex32: return networkID == "sui" ? Base58.encode(random.bytes(32)) : "0x" + hex(random.bytes(32))
        }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

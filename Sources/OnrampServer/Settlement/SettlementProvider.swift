import OnrampCore
import OnrampCrypto

/// Delivers purchased crypto. The server ships a simulator; a real provider (a custody or chain
/// client) implements the same protocol.
public protocol SettlementProvider: Sendable {
    /// Sends `amount` of `asset` to `walletAddress` on `network` for the purchase `reference`.
    func settle(reference: String, network: String, asset: String, amount: String, walletAddress: String, partnerUserRef: String)
        -> SettlementResult
}

/// How a settlement ended.
public enum SettlementResult: Sendable, Equatable {
    /// Sent in the on-chain transaction with this hash.
    case delivered(txHash: String)
    /// The fiat purchase failed.
    case buyFailed
    /// The on-chain send failed.
    case sendFailed
}

/// A deterministic settlement simulator: transaction hashes shaped like the network's (EVM `0x` + 64
/// hex, Solana base58 signatures, Bitcoin/Stellar 64 hex), derived from the purchase reference.
/// Documented test inputs fail: a `partnerUserRef` ending in `-fail-buy` fails the purchase, one
/// ending in `-fail-send` fails the send.
public struct SimulatedSettlement: SettlementProvider {
    /// Creates the simulator.
    public init() {}

    public func settle(
        reference: String, network: String, asset: String, amount: String, walletAddress: String, partnerUserRef: String
    ) -> SettlementResult {
        if partnerUserRef.hasSuffix("-fail-buy") { return .buyFailed }
        if partnerUserRef.hasSuffix("-fail-send") { return .sendFailed }
        return .delivered(txHash: Self.transactionHash(reference: reference, network: network))
    }

    /// A hash in the shape of `network`'s transaction ids.
    public static func transactionHash(reference: String, network: String) -> String {
        let digest = SHA256.hash(Array("settlement:\(reference)".utf8))
        switch network {
        case "solana":
            return Base58.encode(digest + SHA256.hash(digest))
        case "bitcoin", "stellar":
            return Hex.encode(digest)
        default:
            return "0x" + Hex.encode(digest)
        }
    }
}

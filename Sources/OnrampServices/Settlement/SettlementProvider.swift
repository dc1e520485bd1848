import OnrampCore
import OnrampCrypto

/// Delivers purchased crypto. The server ships a simulator; a real provider (a custody or chain
/// client) implements the same protocol. It must be idempotent on `reference`: a worker that dies
/// after settling is retried with the same reference once its lease runs out.
public protocol SettlementProvider: Sendable {
    /// Sends `amount` of `asset` to `walletAddress` on `network` for the purchase `reference`.
    func settle(
        reference: String, network: String, asset: String, amount: String, walletAddress: String, partnerUserRef: String
    )
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

/// The settlement simulator: transaction hashes shaped like the network's (EVM `0x` + 64 hex,
/// Solana base58 signatures, Bitcoin/Stellar 64 hex). Documented test inputs fail: a
/// `partnerUserRef` ending in `-fail-buy` fails the purchase, one ending in `-fail-send` fails the send.
/// Idempotent on `reference`, as the protocol asks: the hash is derived from it, so a retried or
/// concurrent settlement of the same purchase reports the same transaction.
public struct SimulatedSettlement: SettlementProvider {
    package let catalogue: Catalogue

    /// Creates the simulator.
    public init(catalogue: Catalogue = .standard) {
        self.catalogue = catalogue
    }

    public func settle(
        reference: String, network: String, asset: String, amount: String, walletAddress: String, partnerUserRef: String
    ) -> SettlementResult {
        if partnerUserRef.hasSuffix("-fail-buy") { return .buyFailed }
        if partnerUserRef.hasSuffix("-fail-send") { return .sendFailed }
        let format = (try? catalogue.network(network).addressFormat) ?? .evm
        let digest = SHA256.hash(Array("\(network)|\(reference)".utf8))
        let seed = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return .delivered(
            txHash: TransactionHashGenerator(random: SeededRandomSource(seed: seed)).hash(
                for: format, networkID: network))
    }
}

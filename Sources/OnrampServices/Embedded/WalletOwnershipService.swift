import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// Proving and forgetting a registered wallet: a single-use challenge message, the signature over it, and
/// deleting the wallet.
///
/// Test mode accepts Stripe's test signature `abcd` (the SDK's example app says so); a Solana wallet may also
/// sign for real (ed25519 over the message's UTF-8, the signature in Base58, base64 or hex). Other networks'
/// signatures (EIP-191 `personal_sign` needs secp256k1 key recovery) cannot be checked here, so live mode
/// refuses them as unsupported.
package struct WalletOwnershipService: Sendable, UsesServiceEnvironment {
    /// How long a challenge can be answered.
    package static let challengeLifetimeMilliseconds: Int64 = 600_000
    /// Stripe's test-mode signature.
    package static let testModeSignature = "abcd"

    package let environment: ServiceEnvironment

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
    }

    /// A challenge the wallet's owner signs, as issued.
    package struct IssuedChallenge: Sendable {
        package let id: String
        package let wallet: WalletReference
        package let message: String
        /// RFC 3339.
        package let expiresAt: String
    }

    /// Issues a challenge for `customer`'s registered `wallet`.
    package func challenge(_ wallet: WalletReference, customerId: String) throws -> IssuedChallenge {
        let id = ids.id(prefix: IdPrefix.walletOwnershipChallenge)
        let now = Timestamp.milliseconds(clock.now())
        let expiresAt = now + Self.challengeLifetimeMilliseconds
        let expiry = Timestamp.rfc3339(milliseconds: expiresAt)
        let message =
            "OnrampKit sandbox: I own \(wallet.address) on \(wallet.network). Challenge \(id), valid until \(expiry)."
        try database.transaction { connection in
            let wallets = CryptoWalletRepository(connection: connection, customerId: customerId)
            guard let registered = try wallets.find(network: wallet.network, address: wallet.address) else {
                throw OnrampError.refusal(
                    "crypto_onramp_wallet_not_found", "Register the wallet before proving that you own it.",
                    parameter: "wallet_address", kind: .notFound)
            }
            try wallets.insertChallenge(
                id: id, walletId: registered.id, message: message, expiresAt: expiresAt, now: now)
        }
        return IssuedChallenge(id: id, wallet: wallet, message: message, expiresAt: expiry)
    }

    /// Spends challenge `challengeId` on `signature` and marks its wallet's ownership proven.
    package func verify(challengeId: String, signature: String, customerId: String, livemode: Bool) throws
        -> CryptoConsumerWallet
    {
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            let wallets = CryptoWalletRepository(connection: connection, customerId: customerId)
            let noChallenge = OnrampError.refusal(
                "crypto_onramp_invalid_wallet_ownership_challenge", "No open challenge \(challengeId).",
                parameter: "challenge_id")
            guard let challenge = try wallets.challenge(id: challengeId), challenge.usedAt == nil else {
                throw noChallenge
            }
            guard challenge.expiresAt > now else {
                throw OnrampError.refusal(
                    "crypto_onramp_wallet_ownership_challenge_expired", "The challenge expired; ask for a new one.",
                    parameter: "challenge_id")
            }
            guard
                try Self.accepts(
                    signature, over: challenge.message, network: challenge.network, address: challenge.address,
                    livemode: livemode)
            else {
                throw OnrampError.refusal(
                    "crypto_onramp_invalid_wallet_ownership_signature",
                    "The signature is not the wallet's over the exact challenge message.", parameter: "signature")
            }
            guard try wallets.prove(challengeId: challengeId, walletId: challenge.walletId, now: now) else {
                throw noChallenge
            }
            return CryptoConsumerWallet(
                id: challenge.walletId, livemode: livemode, network: challenge.network, verifiedOwnership: true,
                walletAddress: challenge.address)
        }
    }

    /// Deletes `customerId`'s wallet `walletId`.
    package func delete(walletId: String, customerId: String) throws {
        let deleted = try database.transaction {
            try CryptoWalletRepository(connection: $0, customerId: customerId).delete(id: walletId)
        }
        guard deleted else {
            throw OnrampError.refusal(
                "crypto_onramp_wallet_not_found", "No wallet \(walletId) of this customer.", parameter: "wallet_token",
                kind: .notFound)
        }
    }

    /// Whether `signature` proves the wallet signed `message` (see the type's rules).
    package static func accepts(
        _ signature: String, over message: String, network: String, address: String, livemode: Bool
    )
        throws -> Bool
    {
        if !livemode, signature == testModeSignature { return true }
        guard network == "solana" else {
            guard !livemode else {
                throw OnrampError.refusal(
                    "crypto_onramp_unsupported_network",
                    "Wallet ownership on \(network) cannot be verified here; Solana signatures can.",
                    parameter: "signature"
                )
            }
            return false
        }
        guard let publicKey = Base58.decode(address), publicKey.count == 32,
            let key = try? Ed25519.PublicKey(rawRepresentation: publicKey)
        else { return false }
        let decoded = [Base58.decode(signature), Base64.decode(signature), Hex.decode(signature)]
        return decoded.contains { bytes in
            bytes.map { $0.count == 64 && key.isValidSignature($0, for: Array(message.utf8)) } ?? false
        }
    }
}

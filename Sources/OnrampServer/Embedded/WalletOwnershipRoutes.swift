import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The 2026 SDK's wallet calls (stripe-ios `STPAPIClient+CryptoOnramp.swift` at dbe14ec, with
/// `WalletOwnershipChallengeRequest`, `WalletOwnershipSignatureRequest`, `DeleteWalletRequest`): a challenge
/// message for a registered wallet, the signature over it, and deleting a wallet.
///
/// The SDK treats the signature as an opaque string. Test mode accepts `abcd`, as Stripe's test mode does
/// (the SDK's example app says so); a Solana wallet may also sign for real (ed25519 over the message's UTF-8,
/// the signature in Base58, base64 or hex). Other networks' signatures (EIP-191 `personal_sign` needs
/// secp256k1 key recovery) cannot be checked here, so live mode refuses them as unsupported.
struct WalletOwnershipRoutes: Sendable {
    /// How long a challenge can be answered.
    static let challengeLifetimeMilliseconds: Int64 = 600_000
    /// Stripe's test-mode signature.
    static let testModeSignature = "abcd"

    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        routes.client(
            &router, "POST", "/v1/crypto/internal/wallet_ownership_challenge", Operations.createWalletOwnershipChallenge
        ) { request, caller, body in
            try challenge(request, caller: caller, body: body)
        }
        routes.client(
            &router, "POST", "/v1/crypto/internal/wallet_ownership_verification",
            Operations.verifyWalletOwnership
        ) { request, caller, body in
            try verify(request, caller: caller, body: body)
        }
        routes.client(&router, "DELETE", "/v1/crypto/internal/wallet", Operations.deleteConsumerWallet) {
            request, caller, body in
            let customer = try CryptoInternalRoutes(routes: routes).customer(request, caller: caller, body: body)
            let walletId = try StripeErrors.fields(body).required("wallet_token", maxLength: 64)
            let deleted = try context.database.transaction { connection in
                try CryptoWalletRepository(connection: connection, customerId: customer.id).delete(id: walletId)
            }
            guard deleted else {
                throw StripeErrors.invalid(
                    "crypto_onramp_wallet_not_found", "No wallet \(walletId) of this customer.", param: "wallet_token",
                    status: 404)
            }
            return [:]
        }
    }

    private func challenge(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let customer = try CryptoInternalRoutes(routes: routes).customer(request, caller: caller, body: body)
        let fields = StripeErrors.fields(body)
        let address = try fields.required("wallet_address", maxLength: 128)
        let network = try fields.required("network", maxLength: 32).lowercased()
        let id = context.ids.id(prefix: IdPrefix.walletOwnershipChallenge)
        let now = context.nowMilliseconds
        let expiresAt = now + Self.challengeLifetimeMilliseconds
        let expiry = Timestamp.rfc3339(milliseconds: expiresAt)
        let message = "OnrampKit sandbox: I own \(address) on \(network). Challenge \(id), valid until \(expiry)."
        try context.database.transaction { connection in
            let wallets = CryptoWalletRepository(connection: connection, customerId: customer.id)
            guard let wallet = try wallets.find(network: network, address: address) else {
                throw StripeErrors.invalid(
                    "crypto_onramp_wallet_not_found", "Register the wallet before proving that you own it.",
                    param: "wallet_address", status: 404)
            }
            try wallets.insertChallenge(id: id, walletId: wallet.id, message: message, expiresAt: expiresAt, now: now)
        }
        return [
            "challenge_id": .string(id), "wallet_address": .string(address), "network": .string(network),
            "message": .string(message), "expires_at": .string(expiry),
        ]
    }

    private func verify(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let customer = try CryptoInternalRoutes(routes: routes).customer(request, caller: caller, body: body)
        let fields = StripeErrors.fields(body)
        let challengeId = try fields.required("challenge_id", maxLength: 64)
        let signature = try fields.required("signature", maxLength: 1024)
        let now = context.nowMilliseconds
        return try context.database.transaction { connection in
            let wallets = CryptoWalletRepository(connection: connection, customerId: customer.id)
            let noChallenge = StripeErrors.invalid(
                "crypto_onramp_invalid_wallet_ownership_challenge", "No open challenge \(challengeId).",
                param: "challenge_id")
            guard let challenge = try wallets.challenge(id: challengeId), challenge.usedAt == nil else {
                throw noChallenge
            }
            guard challenge.expiresAt > now else {
                throw StripeErrors.invalid(
                    "crypto_onramp_wallet_ownership_challenge_expired", "The challenge expired; ask for a new one.",
                    param: "challenge_id")
            }
            guard
                try accepts(
                    signature, over: challenge.message, network: challenge.network, address: challenge.address,
                    livemode: caller.livemode)
            else {
                throw StripeErrors.invalid(
                    "crypto_onramp_invalid_wallet_ownership_signature",
                    "The signature is not the wallet's over the exact challenge message.", param: "signature")
            }
            guard try wallets.prove(challengeId: challengeId, walletId: challenge.walletId, now: now) else {
                throw noChallenge
            }
            return CryptoInternalRoutes.walletJSON(
                id: challenge.walletId, network: challenge.network, address: challenge.address,
                livemode: caller.livemode, verifiedOwnership: true)
        }
    }

    /// Whether `signature` proves the wallet signed `message` (see the type's rules).
    private func accepts(_ signature: String, over message: String, network: String, address: String, livemode: Bool)
        throws -> Bool
    {
        if !livemode, signature == Self.testModeSignature { return true }
        guard network == "solana" else {
            guard !livemode else {
                throw StripeErrors.invalid(
                    "crypto_onramp_unsupported_network",
                    "Wallet ownership on \(network) cannot be verified here; Solana signatures can.", param: "signature"
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

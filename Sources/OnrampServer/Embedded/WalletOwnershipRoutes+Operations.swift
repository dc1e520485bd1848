import HTTPServer
import OnrampServices
import OnrampWire

extension WalletOwnershipRoutes {
    /// The OpenAPI operations of the wallet ownership and deletion calls.
    enum Operations {
        static let credentials = ConsumerRoutes.Operations.credentials

        /// Issues a challenge.
        static let createWalletOwnershipChallenge = APIOperation.stripe(
            "POST /v1/crypto/internal/wallet_ownership_challenge",
            "createWalletOwnershipChallenge", "A message for a registered wallet to sign, proving it is the user's.",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "wallet_address": .string(minLength: 1, maxLength: 128),
                    "network": .string(minLength: 1, maxLength: 32),
                ], required: ["credentials", "wallet_address", "network"]),
            response: .object(
                [
                    "challenge_id": .string, "wallet_address": .string, "network": .string, "message": .string,
                    "expires_at": .dateTime,
                ], required: ["challenge_id", "wallet_address", "network", "message", "expires_at"]))

        /// Checks the signature.
        static let verifyWalletOwnership = APIOperation.stripe(
            "POST /v1/crypto/internal/wallet_ownership_verification",
            "verifyWalletOwnership",
            "Checks the wallet's signature over the challenge message (test mode: `abcd`; Solana: ed25519).",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "challenge_id": .string(minLength: 1, maxLength: 64),
                    "signature": .string(minLength: 1, maxLength: 1024),
                ], required: ["credentials", "challenge_id", "signature"]),
            response: CryptoConsumerWallet.schema)

        /// Deletes a wallet.
        static let deleteConsumerWallet = APIOperation.stripe(
            "DELETE /v1/crypto/internal/wallet",
            "deleteConsumerWallet", "Removes a wallet of the signed-in customer.", tag: "Embedded", auth: .anyKey,
            form: .object(
                ["credentials": credentials, "wallet_token": .string(minLength: 1, maxLength: 64)],
                required: ["credentials", "wallet_token"]),
            response: .object([:]))
    }
}

import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The 2026 SDK's wallet calls (stripe-ios `STPAPIClient+CryptoOnramp.swift` at dbe14ec, with
/// `WalletOwnershipChallengeRequest`, `WalletOwnershipSignatureRequest`, `DeleteWalletRequest`): a challenge
/// message for a registered wallet, the signature over it, and deleting a wallet. The SDK treats the
/// signature as an opaque string; ``WalletOwnershipService`` says which it accepts.
struct WalletOwnershipRoutes: Sendable {
    let customers: CryptoInternalRoutes
    let service: WalletOwnershipService

    init(routes: StripeRoutes) {
        customers = CryptoInternalRoutes(routes: routes)
        service = WalletOwnershipService(context: routes.context)
    }

    func createWalletOwnershipChallenge(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        let customer = try customers.customer(request, caller: caller, body: body)
        let challenge = try service.challenge(WalletReference(RequestFields.stripe(body)), customerId: customer.id)
        return [
            "challenge_id": .string(challenge.id), "wallet_address": .string(challenge.wallet.address),
            "network": .string(challenge.wallet.network), "message": .string(challenge.message),
            "expires_at": .string(challenge.expiresAt),
        ]
    }

    func verifyWalletOwnership(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customers.customer(request, caller: caller, body: body)
        let fields = RequestFields.stripe(body)
        return try service.verify(
            challengeId: try fields.required("challenge_id", maxLength: 64),
            signature: try fields.required("signature", maxLength: 1024), customerId: customer.id,
            livemode: caller.livemode
        ).json
    }

    func deleteConsumerWallet(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customers.customer(request, caller: caller, body: body)
        let walletId = try RequestFields.stripe(body).required("wallet_token", maxLength: 64)
        try service.delete(walletId: walletId, customerId: customer.id)
        return [:]
    }
}

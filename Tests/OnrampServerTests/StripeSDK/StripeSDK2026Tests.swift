import Foundation
import OnrampCore
import OnrampCrypto
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The 2026 calls of `STPAPIClient+CryptoOnramp.swift` (dbe14ec): wallet ownership, wallet deletion, the
/// CRS/CARF declaration and the partner terms, sent as that client sends them (its GETs name the session in
/// the `Stripe-Consumer-Auth-Token` header, with nothing in the query).
@Suite(.blocking) struct StripeSDK2026Tests {
    typealias Fixture = StripeSDKMismatchTests.Fixture

    @Test func aSolanaWalletProvesOwnershipWithARealSignatureAndTestModeTakesAbcd() throws {
        let fixture = try Fixture()
        let key = try Ed25519.PrivateKey()
        let address = Base58.encode(key.publicKey.rawRepresentation)
        _ = try fixture.server.registerWallet(fixture.user, address: address, network: "solana")
        let challenge = try fixture.sdk.post(
            "crypto/internal/wallet_ownership_challenge",
            ["credentials": fixture.credentials, "wallet_address": .string(address), "network": "solana"],
            as: SDKWalletOwnershipChallenge.self)
        #expect(challenge.message.contains(address) && challenge.expiresAt.hasSuffix("Z"))
        let (wrong, wrongError) = try fixture.sdk.error(
            "POST", "crypto/internal/wallet_ownership_verification",
            [
                "credentials": fixture.credentials, "challenge_id": .string(challenge.challengeId),
                "signature": .string(Base58.encode(try key.signature(for: Array("another message".utf8)))),
            ])
        #expect(wrong == 400 && wrongError.error.code == "crypto_onramp_invalid_wallet_ownership_signature")
        let verified = try fixture.sdk.post(
            "crypto/internal/wallet_ownership_verification",
            [
                "credentials": fixture.credentials, "challenge_id": .string(challenge.challengeId),
                "signature": .string(Base58.encode(try key.signature(for: Array(challenge.message.utf8)))),
            ], as: SDKCryptoConsumerWallet.self)
        #expect(verified.verifiedOwnership && verified.walletAddress == address)
        let (again, againError) = try fixture.sdk.error(
            "POST", "crypto/internal/wallet_ownership_verification",
            ["credentials": fixture.credentials, "challenge_id": .string(challenge.challengeId), "signature": "abcd"])
        #expect(
            again == 400 && againError.error.code == "crypto_onramp_invalid_wallet_ownership_challenge", "used once")
        let listed = try fixture.server.backend.get(
            "/v1/crypto/customers/\(fixture.user.customerId)/crypto_consumer_wallets", headers: fixture.user.oauth)
        #expect(listed["data.0.verified_ownership"] as? Bool == true, "\(listed)")

        let base = try fixture.server.registerWallet(fixture.user)
        let baseChallenge = try fixture.sdk.post(
            "crypto/internal/wallet_ownership_challenge",
            ["credentials": fixture.credentials, "wallet_address": .string(base), "network": "base"],
            as: SDKWalletOwnershipChallenge.self)
        let testMode = try fixture.sdk.post(
            "crypto/internal/wallet_ownership_verification",
            [
                "credentials": fixture.credentials, "challenge_id": .string(baseChallenge.challengeId),
                "signature": "abcd",
            ],
            as: SDKCryptoConsumerWallet.self)
        #expect(testMode.verifiedOwnership && testMode.network == "base")
    }

    @Test func aWalletIsDeletedOnce() throws {
        let fixture = try Fixture()
        _ = try fixture.server.registerWallet(fixture.user)
        let listed = try fixture.server.backend.get(
            "/v1/crypto/customers/\(fixture.user.customerId)/crypto_consumer_wallets", headers: fixture.user.oauth)
        let walletId = try #require(listed["data.0.id"] as? String)
        let deleted = try fixture.sdk.send(
            "DELETE", "crypto/internal/wallet",
            ["credentials": fixture.credentials, "wallet_token": .string(walletId)],
            key: nil)
        #expect(deleted.status == 200 && deleted.text == "{}", "\(deleted.text)")
        let (again, againError) = try fixture.sdk.error(
            "DELETE", "crypto/internal/wallet", ["credentials": fixture.credentials, "wallet_token": .string(walletId)])
        #expect(again == 404 && againError.error.code == "crypto_onramp_wallet_not_found")
    }

    @Test func declarationsAreShownUntilAccepted() throws {
        let fixture = try Fixture()
        let declaration = try fixture.get("crypto/internal/crs_carf_declaration", as: SDKUserAttestation.self)
        #expect(declaration.text.hasPrefix("<p>") && !declaration.version.isEmpty)
        let confirmed = try fixture.sdk.send(
            "POST", "crypto/internal/crs_carf_declaration", ["credentials": fixture.credentials], key: nil)
        #expect(confirmed.status == 200, "\(confirmed.text)")

        let terms = try fixture.get(
            "crypto/internal/partner_terms", query: "?declaration_type=transaction_terms", as: SDKPartnerTerms.self)
        let shown = try #require(terms.declaration)
        #expect(terms.required && terms.partner != nil && shown.type == .transactionTerms)
        let accept = try RawHTTPClient(port: fixture.server.port).request(
            "POST", "/v1/crypto/internal/partner_terms",
            headers: [
                ("Authorization", "Bearer \(fixture.server.credentials.stripePublishableKey)"),
                ("Stripe-Consumer-Auth-Token", fixture.user.consumerSecret),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ], body: Array("declaration_id=\(shown.id)".utf8))
        #expect(accept.status == 200, "\(accept.text)")
        let after = try fixture.get(
            "crypto/internal/partner_terms", query: "?declaration_type=transaction_terms", as: SDKPartnerTerms.self)
        #expect(!after.required)
        let service = try fixture.get(
            "crypto/internal/partner_terms", query: "?declaration_type=terms_of_service", as: SDKPartnerTerms.self)
        #expect(service.required, "each kind is accepted on its own")
        // The older PartnerTerms versions ask with `tos` and read the declaration flat.
        let older = try fixture.get(
            "crypto/internal/partner_terms", query: "?declaration_type=tos", as: SDKOlderPartnerTerms.self)
        #expect(
            older.required && older.declarationId == service.declaration?.id && older.text == service.declaration?.text)
    }
}

extension StripeSDKMismatchTests.Fixture {
    /// A GET as the 2026 client sends it: the session in `Stripe-Consumer-Auth-Token`, nothing in the query.
    func get<T: Decodable>(_ resource: String, query: String = "", as type: T.Type) throws -> T {
        let reply = try RawHTTPClient(port: server.port).request(
            "GET", "/v1/\(resource)\(query)",
            headers: [
                ("Authorization", "Bearer \(server.credentials.stripePublishableKey)"),
                ("Stripe-Version", "2026-03-25.preview"), ("Stripe-Consumer-Auth-Token", user.consumerSecret),
            ])
        return try sdk.decoded(type, reply, resource)
    }
}

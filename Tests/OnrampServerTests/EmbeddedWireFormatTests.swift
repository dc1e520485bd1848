import Foundation
import OnrampCrypto
import OnrampTestSupport
import OnrampWire
import Testing

/// Wire details: the outbox event shape, destination amounts, Apple Pay and hashed emails.
@Suite(.serialized, .blocking) struct EmbeddedWireFormatTests {
    @Test func outboxEventsAreFullStripeEventsKeyedByTheirEventId() throws {
        let server = try EmbeddedTestServer(settlementDelay: 30)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let session = try server.createSession(
            user, token: try server.paymentToken(user), wallet: try server.registerWallet(user))
        _ = try server.checkout(user, session.string("id"))
        let rows = try server.database.read {
            try $0.query("SELECT id, type, family, livemode, payload FROM outbox_events", [])
        }
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        let event = try #require(
            try JSONSerialization.jsonObject(with: Data(try row.string("payload").utf8)) as? [String: Any])
        #expect(try row.string("id") == event["id"] as? String)
        #expect((event["id"] as? String)?.hasPrefix("evt_") == true)
        #expect(event["object"] as? String == "event")
        #expect(event["type"] as? String == "crypto.onramp_session.updated")
        #expect(try row.string("family") == "stripe" && event["livemode"] as? Bool == false)
        let object = (event["data"] as? [String: Any])?["object"] as? [String: Any]
        #expect(object?["id"] as? String == session.string("id"))
        #expect(object?["object"] as? String == "crypto.onramp_session")
        #expect(object?["status"] as? String == "fulfillment_processing")
    }

    @Test func destinationAmountSessionsQuoteTheSourceSide() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let reply = try server.backend.post(
            "/v1/crypto/onramp_sessions",
            [
                ("crypto_customer_id", user.customerId), ("payment_token", token), ("destination_amount", "10"),
                ("source_currency", "usd"), ("destination_currency", "usdc"), ("destination_network", "base"),
                ("wallet_address", wallet), ("settlement_speed", "standard"), ("metadata[order]", "42"),
            ], headers: user.oauth)
        #expect(reply.status == 200, "\(reply)")
        // stripe-node's OnrampSession: metadata, kyc_details_provided and redirect_url are always there.
        #expect(reply["redirect_url"] is NSNull && reply["transaction_details.wallet_addresses.solana"] is NSNull)
        let session = try JSONDecoder().decode(CryptoOnrampSession.self, from: Data(reply.text.utf8))
        #expect(session.metadata == ["order": "42"] && !session.kycDetailsProvided && session.redirectURL == nil)
        let details = session.transactionDetails
        #expect(details.destinationAmount == "10.000000" && details.settlementSpeed == .standard)
        #expect(details.sourceAmount?.split(separator: ".").last?.count == 2, "\(details)")
        #expect(details.walletAddress == wallet && details.walletAddresses["base_network"] == .string(wallet))
    }

    @Test func applePayIsACardInAWallet() throws {
        let server = try EmbeddedTestServer()
        let method = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"), ("wallet[type]", "apple_pay"),
            ])
        #expect(method.string("card.wallet.type") == "apple_pay", "\(method)")
        #expect(method.string("id").hasPrefix("pm_"))
    }

    @Test func linkAuthIntentsAcceptAHashedEmail() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let hashed = Hex.encode(SHA256.hash(Array(user.email.lowercased().utf8)))
        let intent = try server.backend.post(
            "/v1/link_auth_intent",
            [
                ("hashed_email", hashed), ("oauth_client_id", server.credentials.oauthClientId),
                ("oauth_scopes", "kyc.status:read"),
            ])
        #expect(intent.string("id").hasPrefix("lai_"), "\(intent)")
        #expect(intent["expires_at"] is Int)
    }
}

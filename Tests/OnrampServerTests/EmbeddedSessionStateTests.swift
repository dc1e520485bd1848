import Foundation
import OnrampCore
import OnrampServer
import OnrampTestSupport
import Testing

@testable import OnrampServices

/// Every transition of the onramp session machine as the API exposes it, with the events each one
/// writes (one `crypto.onramp_session.updated` per status change, none on creation).
@Suite(.serialized, .blocking) struct EmbeddedSessionStateTests {
    /// A settlement provider whose deliveries always fail.
    struct FailingSettlement: SettlementProvider {
        func settle(
            reference: String, network: String, asset: String, amount: String, walletAddress: String,
            partnerUserRef: String
        ) -> SettlementResult { .sendFailed }
    }

    let updated = "crypto.onramp_session.updated"

    private func readyUser(_ server: EmbeddedTestServer) throws -> EmbeddedTestServer.User {
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        return user
    }

    @Test func initializedWithoutWalletThenQuoteMakesItPayable() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let token = try server.paymentToken(user)
        let wallet = "0x52908400098527886E0F7030069857D2E4169EE7"
        let created = try server.createSession(user, token: token, wallet: wallet)
        #expect(created.string("status") == "initialized", "\(created)")
        #expect(created.string("transaction_details.last_error") == "missing_consumer_wallet")
        let id = created.string("id")
        let blocked = try server.checkout(user, id)
        #expect(blocked.string("status") == "initialized")
        #expect(try server.sessionEvents(id).isEmpty)
        try server.registerWallet(user, address: wallet)
        let quoted = try server.backend.post("/v1/crypto/onramp_sessions/\(id)/quote", headers: user.oauth)
        #expect(quoted.string("status") == "requires_payment", "\(quoted)")
        #expect(quoted["transaction_details.last_error"] is NSNull)
        #expect(try server.sessionEvents(id) == ["\(updated):requires_payment"])
    }

    @Test func initializedCheckoutAfterWalletGoesStraightToProcessing() throws {
        let server = try EmbeddedTestServer(settlementDelay: 30)
        let user = try readyUser(server)
        let token = try server.paymentToken(user)
        let wallet = "0x52908400098527886E0F7030069857D2E4169EE7"
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        try server.registerWallet(user, address: wallet)
        #expect(try server.checkout(user, id).string("status") == "fulfillment_processing")
        #expect(try server.sessionEvents(id) == ["\(updated):requires_payment", "\(updated):fulfillment_processing"])
    }

    @Test func declinedCardRejectsTheSession() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user, card: "4000000000000002")
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        let declined = try server.checkout(user, id)
        #expect(declined.string("status") == "rejected", "\(declined)")
        #expect(declined.string("transaction_details.last_error") == "transaction_failed")
        #expect(try server.sessionEvents(id) == ["\(updated):rejected"])
        let again = try server.checkout(user, id)
        #expect(again.status == 400 && again.string("error.code") == "crypto_onramp_session_rejected")
    }

    @Test func wellKnownTestPaymentMethodsBehaveAsDocumented() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        for (method, status, lastError) in [
            ("pm_card_visa", "fulfillment_processing", nil),
            ("pm_card_chargeDeclined", "rejected", "transaction_failed"),
            ("pm_card_authenticationRequired", "requires_payment", "action_required"),
        ] {
            let token = try server.token(user, paymentMethod: method)
            let id = try server.createSession(user, token: token, wallet: wallet).string("id")
            let reply = try server.checkout(user, id)
            #expect(reply.string("status") == status, "\(method): \(reply)")
            #expect(reply["transaction_details.last_error"] as? String == lastError)
        }
    }

    @Test func failedThreeDSecureRejectsOnTheNextCheckout() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user, card: "4000000000003220")
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        let url = try server.checkout(user, id).string("next_action.redirect_to_url.url")
        #expect(try server.sessionEvents(id).isEmpty)
        _ = try server.submitPage(
            path: "/embedded/test/3ds",
            [("session", id), ("token", EmbeddedTestServer.queryValue(url, "token")), ("outcome", "fail")])
        let failed = try server.checkout(user, id)
        #expect(failed.string("status") == "rejected")
        #expect(failed.string("transaction_details.last_error") == "transaction_failed")
    }

    @Test func expiredQuoteIsRetryableAfterRefresh() throws {
        let clock = ManualClock(Date())
        let server = try EmbeddedTestServer(clock: clock, settlementDelay: 0)
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        clock.advance(by: QuoteCalculator.defaultEmbeddedQuoteLifetime + 1)
        let expired = try server.checkout(user, id)
        #expect(expired.string("status") == "requires_payment")
        #expect(expired.string("transaction_details.last_error") == "charged_with_expired_quote", "\(expired)")
        let refreshed = try server.backend.post("/v1/crypto/onramp_sessions/\(id)/quote", headers: user.oauth)
        #expect(refreshed["transaction_details.last_error"] is NSNull, "\(refreshed)")
        #expect(try server.checkout(user, id).string("status") == "fulfillment_processing")
    }

    /// Session ids keep Stripe's shape (`cos_` and 24 base62 characters) and sort in the order the
    /// sessions were made, so their key index is appended to (20 % fewer log writes per pair).
    @Test func sessionIdsHaveStripesShapeAndSortByCreation() throws {
        let clock = ManualClock(Date())
        let server = try EmbeddedTestServer(clock: clock, settlementDelay: 0)
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        var ids: [String] = []
        for _ in 0..<8 {
            ids.append(try server.createSession(user, token: token, wallet: wallet).string("id"))
            clock.advance(by: 0.001)
        }
        let shape = /cos_[0-9A-Za-z]{24}/
        #expect(ids.allSatisfy { $0.wholeMatch(of: shape) != nil }, "\(ids)")
        #expect(ids == ids.sorted())
    }

    @Test func sandboxLimitAbove100USDRejects() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet, amount: "150.00").string("id")
        let reply = try server.checkout(user, id)
        #expect(reply.string("status") == "rejected")
        #expect(reply.string("transaction_details.last_error") == "transaction_limit_reached")
    }

    @Test func achNeedsMandateData() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let method = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "us_bank_account"), ("us_bank_account[routing_number]", "110000000"),
                ("us_bank_account[account_number]", "000123456789"),
            ])
        #expect(method.string("us_bank_account.last4") == "6789", "\(method)")
        let token = try server.token(user, paymentMethod: method.string("id"))
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        let missing = try server.checkout(user, id)
        #expect(missing.string("transaction_details.last_error") == "action_required")
        let paid = try server.checkout(
            user, id,
            [
                ("mandate_data[customer_acceptance][type]", "online"),
                ("mandate_data[customer_acceptance][online][ip_address]", "203.0.113.7"),
            ])
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
    }

    @Test func repeatedCheckoutAfterPaymentChangesNothing() throws {
        let server = try EmbeddedTestServer(settlementDelay: 30)
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        _ = try server.checkout(user, id)
        #expect(try server.checkout(user, id).string("status") == "fulfillment_processing")
        #expect(try server.sessionEvents(id) == ["\(updated):fulfillment_processing"])
    }

    @Test func failedDeliveryRejectsAfterProcessing() throws {
        let server = try EmbeddedTestServer(settlement: FailingSettlement())
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        _ = try server.checkout(user, id)
        let failed = try server.waitForSession(id, status: "rejected")
        #expect(failed.string("transaction_details.last_error") == "transaction_failed")
        #expect(try server.sessionEvents(id) == ["\(updated):fulfillment_processing", "\(updated):rejected"])
    }

    @Test func listFiltersAndPaginates() throws {
        let server = try EmbeddedTestServer()
        let user = try readyUser(server)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        var ids: [String] = []
        for _ in 0..<3 { ids.append(try server.createSession(user, token: token, wallet: wallet).string("id")) }
        _ = try server.checkout(user, ids[0])
        let firstPage = try server.backend.get("/v1/crypto/onramp_sessions", [("limit", "2")])
        #expect((firstPage["data"] as? [Any])?.count == 2 && firstPage["has_more"] as? Bool == true, "\(firstPage)")
        let last = firstPage.string("data.1.id")
        let secondPage = try server.backend.get(
            "/v1/crypto/onramp_sessions", [("limit", "2"), ("starting_after", last)])
        #expect((secondPage["data"] as? [Any])?.count == 1 && secondPage["has_more"] as? Bool == false)
        let all = Set([firstPage.string("data.0.id"), last, secondPage.string("data.0.id")])
        #expect(all == Set(ids))
        // ending_before pages back toward the newest, still listed newest first.
        let oldest = secondPage.string("data.0.id")
        let back = try server.backend.get(
            "/v1/crypto/onramp_sessions", [("limit", "1"), ("ending_before", oldest)])
        #expect(back.string("data.0.id") == last && back["has_more"] as? Bool == true, "\(back)")
        let newer = try server.backend.get("/v1/crypto/onramp_sessions", [("ending_before", oldest)])
        #expect(newer.string("data.0.id") == firstPage.string("data.0.id") && newer.string("data.1.id") == last)
        #expect(newer["has_more"] as? Bool == false)
        let unknown = try server.backend.get("/v1/crypto/onramp_sessions", [("ending_before", "cos_unknown")])
        #expect(unknown.status == 404 && unknown.string("error.param") == "ending_before", "\(unknown)")
        let window = try server.backend.get(
            "/v1/crypto/onramp_sessions", [("created[gte]", "0"), ("created[lt]", "1"), ("created[lte]", "5")])
        #expect((window["data"] as? [Any])?.count == 0, "the tightest bound wins")
        let filtered = try server.backend.get(
            "/v1/crypto/onramp_sessions", [("status", "requires_payment"), ("destination_network", "base")])
        #expect((filtered["data"] as? [Any])?.count == 2)
        // `created` filters in seconds; out-of-range or non-integer values are refused, not trapped on.
        let now = Int64(Date().timeIntervalSince1970)
        let recent = try server.backend.get("/v1/crypto/onramp_sessions", [("created[gte]", String(now - 3600))])
        #expect((recent["data"] as? [Any])?.count == 3)
        let future = try server.backend.get("/v1/crypto/onramp_sessions", [("created[gt]", String(now + 3600))])
        #expect((future["data"] as? [Any])?.count == 0)
        for (name, value) in [
            ("created", "9223372036854775807"), ("created[lte]", "9223372036854775807"), ("created[gt]", "-1"),
            ("created", "yesterday"),
        ] {
            let refused = try server.backend.get("/v1/crypto/onramp_sessions", [(name, value)])
            #expect(refused.status == 400 && refused.string("error.code") == "parameter_invalid_integer", "\(refused)")
        }
    }
}

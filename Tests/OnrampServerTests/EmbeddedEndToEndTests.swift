import Foundation
import OnrampTestSupport
import Testing

/// The Embedded flow on a real port, from a new email to `fulfillment_complete`.
@Suite(.serialized, .blocking) struct EmbeddedEndToEndTests {
    @Test func newEmailToFulfillmentComplete() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        #expect(user.customerId.hasPrefix("crc_"))
        let customer = try server.collectKYC(user)
        let tiers = customer["kyc_tiers"] as? [[String: Any]] ?? []
        #expect(
            tiers.first { $0["tier"] as? String == "l1" }?["verification_status"] as? String == "verified",
            "\(customer)")
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let created = try server.createSession(user, token: token, wallet: wallet)
        #expect(created.status == 200, "\(created)")
        #expect(created.string("status") == "requires_payment")
        #expect(created.string("transaction_details.source_amount") == "50.00")
        let id = created.string("id")
        #expect(id.hasPrefix("cos_") && created.string("client_secret").hasPrefix("\(id)_secret_"))
        let paid = try server.checkout(user, id)
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        let done = try server.waitForSession(id, status: "fulfillment_complete")
        #expect(done.string("status") == "fulfillment_complete", "\(done)")
        #expect(done.string("transaction_details.transaction_id").hasPrefix("0x"))
        #expect(
            try server.sessionEvents(id) == [
                "crypto.onramp_session.updated:fulfillment_processing",
                "crypto.onramp_session.updated:fulfillment_complete",
            ])
    }

    @Test func threeDSecureChallengeThenCheckoutCompletes() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user, card: "4000000000003220")
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        let challenged = try server.checkout(user, id)
        #expect(challenged.string("status") == "requires_payment")
        #expect(challenged.string("transaction_details.last_error") == "action_required", "\(challenged)")
        let url = challenged.string("next_action.redirect_to_url.url")
        #expect(url.hasPrefix(server.baseURL + "/embedded/test/3ds"))
        let page = try RawHTTPClient(port: server.port).request("GET", String(url.dropFirst(server.baseURL.count)))
        #expect(page.status == 200 && page.text.contains("Complete authentication"))
        let answered = try server.submitPage(
            path: "/embedded/test/3ds",
            [
                ("session", id), ("token", EmbeddedTestServer.queryValue(url, "token")), ("outcome", "complete"),
            ])
        #expect(answered.status == 200 && answered.text.contains("Authentication complete"))
        let paid = try server.checkout(user, id)
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        #expect(
            try server.waitForSession(id, status: "fulfillment_complete").string("status") == "fulfillment_complete")
    }

    @Test func documentVerificationChallengeThenRetrySucceeds() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user, firstName: "Challenge")
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let refused = try server.createSession(user, token: token, wallet: wallet)
        #expect(refused.status == 400)
        #expect(refused.string("error.code") == "crypto_onramp_missing_document_verification", "\(refused)")
        let verification = try server.sdk.post("/v1/crypto/internal/start_identity_verification", [user.credentials])
        #expect(verification.string("ephemeral_key").hasPrefix("ek_test_"), "\(verification)")
        let url = verification.string("url")
        let reject = try server.submitPage(
            path: "/embedded/test/identity",
            [
                ("session", verification.string("id")), ("token", EmbeddedTestServer.queryValue(url, "token")),
                ("outcome", "rejected"),
            ])
        #expect(reject.status == 200)
        let rejected = try server.backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
        #expect((rejected["kyc_tiers"] as? [[String: Any]])?.last?["verification_status"] as? String == "rejected")
        let again = try server.sdk.post("/v1/crypto/internal/start_identity_verification", [user.credentials])
        let pass = try server.submitPage(
            path: "/embedded/test/identity",
            [
                ("session", again.string("id")), ("token", EmbeddedTestServer.queryValue(again.string("url"), "token")),
                ("outcome", "verified"),
            ])
        #expect(pass.status == 200)
        let retried = try server.createSession(user, token: token, wallet: wallet)
        #expect(retried.status == 200, "\(retried)")
        let paid = try server.checkout(user, retried.string("id"))
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        #expect(
            try server.waitForSession(retried.string("id"), status: "fulfillment_complete").string("status")
                == "fulfillment_complete")
    }

    /// Two answers to one identity verification at once: one is recorded, and the customer's document
    /// status is the recorded one's.
    @Test func concurrentIdentityAnswersRecordOneOutcome() throws {
        let server = try EmbeddedTestServer(transport: .live)
        for _ in 0..<4 {
            let user = try server.signUpAndAuthorize()
            try server.collectKYC(user, firstName: "Challenge")
            let verification = try server.sdk.post(
                "/v1/crypto/internal/start_identity_verification", [user.credentials])
            let form = { (outcome: String) in
                [
                    ("session", verification.string("id")),
                    ("token", EmbeddedTestServer.queryValue(verification.string("url"), "token")),
                    ("outcome", outcome),
                ]
            }
            #expect(verification.status == 200, "\(verification)")
            let answers = [form("rejected"), form("verified")]
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                _ = try? server.submitPage(path: "/embedded/test/identity", answers[index])
            }
            let row = try #require(
                try server.database.read {
                    try $0.query(
                        """
                        SELECT v.status AS recorded, c.document_status AS document FROM identity_verifications v
                        JOIN crypto_customers c ON c.id = v.customer_id WHERE v.id = ?
                        """, [.text(verification.string("id"))]
                    ).first
                })
            #expect(try row.string("recorded") == row.string("document"))
        }
    }
}

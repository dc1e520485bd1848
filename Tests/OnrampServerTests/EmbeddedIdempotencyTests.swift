import Foundation
import OnrampServer
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServices

/// `Idempotency-Key` on POST: same key and body replays, another body is a 400 `idempotency_error`.
@Suite(.serialized, .blocking) struct EmbeddedIdempotencyTests {
    @Test func sameKeyAndBodyReplaysTheStoredResponse() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let key = [("Idempotency-Key", "create-1")]
        _ = try server.createSession(user, token: token, wallet: wallet)
        let form: [(String, String)] = [
            ("crypto_customer_id", user.customerId), ("payment_token", token), ("source_amount", "20.00"),
            ("source_currency", "usd"), ("destination_currency", "usdc"), ("destination_network", "base"),
            ("wallet_address", wallet),
        ]
        let a = try server.backend.post("/v1/crypto/onramp_sessions", form, headers: user.oauth + key)
        let b = try server.backend.post("/v1/crypto/onramp_sessions", form, headers: user.oauth + key)
        #expect(a.status == 200 && b.status == 200)
        #expect(a.string("id") == b.string("id") && a.text == b.text)
        #expect(b.headers["idempotent-replayed"] == "true")
        let list = try server.backend.get("/v1/crypto/onramp_sessions", [("limit", "100")])
        #expect((list["data"] as? [Any])?.count == 2)
    }

    /// A key of 256 bytes is refused (400 `idempotency_key_invalid` naming the header) before anything runs;
    /// one of 255 is taken.
    @Test func aKeyLongerThan255BytesIsRefused() throws {
        let server = try EmbeddedTestServer()
        let card = [
            ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
            ("card[exp_year]", "2034"),
        ]
        let refused = try server.sdk.post(
            "/v1/payment_methods", card, headers: [("Idempotency-Key", String(repeating: "k", count: 256))])
        #expect(refused.status == 400)
        #expect(refused.string("error.code") == "idempotency_key_invalid")
        #expect(refused.string("error.param") == "Idempotency-Key")
        let taken = try server.sdk.post(
            "/v1/payment_methods", card, headers: [("Idempotency-Key", String(repeating: "k", count: 255))])
        #expect(taken.status == 200)
    }

    @Test func sameKeyWithAnotherBodyIsRefused() throws {
        let server = try EmbeddedTestServer()
        let key = [("Idempotency-Key", "pm-1")]
        let card = [
            ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
            ("card[exp_year]", "2034"),
        ]
        let first = try server.sdk.post("/v1/payment_methods", card, headers: key)
        #expect(first.status == 200)
        var other = card
        other[1] = ("card[number]", "4000000000003220")
        let second = try server.sdk.post("/v1/payment_methods", other, headers: key)
        #expect(second.status == 400)
        #expect(second.string("error.type") == "idempotency_error", "\(second)")
        #expect(second.string("error.code") == "idempotency_error")
    }

    @Test func errorsAreReplayedToo() throws {
        let server = try EmbeddedTestServer()
        let key = [("Idempotency-Key", "bad-phone")]
        let form = [("email_address", "a@example.com"), ("phone_number", "123"), ("country", "US")]
        let a = try server.sdk.post("/v1/consumers/accounts/sign_up", form, headers: key)
        let b = try server.sdk.post("/v1/consumers/accounts/sign_up", form, headers: key)
        #expect(a.status == 400 && b.status == 400 && a.string("error.code") == b.string("error.code"))
        #expect(b.headers["idempotent-replayed"] == "true")
        // A domain rule's refusal (an amount that does not parse, mapped at the Stripe edge) is replayed too.
        let user = try server.signUpAndAuthorize()
        let session = [("Idempotency-Key", "bad-amount")] + user.oauth
        let badAmount = [
            ("crypto_customer_id", user.customerId), ("payment_token", "pm_x"), ("source_amount", "ten"),
            ("source_currency", "usd"), ("destination_currency", "usdc"), ("destination_network", "base"),
            ("wallet_address", "0x0000000000000000000000000000000000000001"),
        ]
        let first = try server.backend.post("/v1/crypto/onramp_sessions", badAmount, headers: session)
        let second = try server.backend.post("/v1/crypto/onramp_sessions", badAmount, headers: session)
        #expect(first.status == 400, "\(first)")
        #expect(first.string("error.type") == "invalid_request_error" && first.string("error.param") == "source_amount")
        #expect(second.string("error.code") == first.string("error.code"))
        #expect(second.headers["idempotent-replayed"] == "true")
    }

    /// Stored responses carry secrets and stored request hashes cover card numbers: neither is readable
    /// in the database, and rows written under another data key are refused rather than replayed or rerun.
    @Test func storedRowsRevealNothingAndOutliveNoDataKey() throws {
        let server = try EmbeddedTestServer()
        let key = [("Idempotency-Key", "sign-up-1")]
        let form = [("email_address", "secret@example.com"), ("phone_number", "+14155550123"), ("country", "US")]
        let first = try server.sdk.post("/v1/consumers/accounts/sign_up", form, headers: key)
        let secret = first.string("consumer_session.client_secret")
        #expect(first.status == 200 && !secret.isEmpty, "\(first)")
        let replayed = try server.sdk.post("/v1/consumers/accounts/sign_up", form, headers: key)
        #expect(replayed.text == first.text && replayed.headers["idempotent-replayed"] == "true")
        let row = try #require(
            try server.database.read {
                try $0.query(
                    "SELECT request_hash, body FROM stripe_idempotency_keys WHERE idempotency_key = 'sign-up-1'"
                )
                .first
            })
        let body = try row.string("body")
        let hash = try row.string("request_hash")
        #expect(!body.contains(secret) && !body.contains("secret@example.com") && body.hasPrefix("v1:"))
        #expect(hash.hasPrefix("v1:") && hash.count == "v1:00000000:".count + 64)
        // The same rows under another data key (a restart without ONRAMP_DATA_KEY): a clear refusal.
        try server.database.transaction {
            try $0.execute(
                "UPDATE stripe_idempotency_keys SET request_hash = ? WHERE idempotency_key = 'sign-up-1'",
                [.text("v1:00000000:" + hash.split(separator: ":").last!)])
        }
        let refused = try server.sdk.post("/v1/consumers/accounts/sign_up", form, headers: key)
        #expect(refused.status == 400 && refused.string("error.type") == "idempotency_error", "\(refused)")
        #expect(refused.string("error.message").contains("ONRAMP_DATA_KEY"))
        // A damaged body is refused too, never returned.
        try server.database.transaction {
            try $0.execute(
                "UPDATE stripe_idempotency_keys SET request_hash = ?, body = ? WHERE idempotency_key = 'sign-up-1'",
                [.text(hash), .text(String(body.dropLast(4)) + "AAA=")])
        }
        let damaged = try server.sdk.post("/v1/consumers/accounts/sign_up", form, headers: key)
        #expect(damaged.status == 400 && damaged.string("error.type") == "idempotency_error", "\(damaged)")
    }

    @Test func keysAreScopedPerProject() throws {
        let server = try EmbeddedTestServer()
        let key = [("Idempotency-Key", "shared")]
        let card = [
            ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
            ("card[exp_year]", "2034"),
        ]
        let a = try server.sdk.post("/v1/payment_methods", card, headers: key)
        let second = try ProjectProvisioner(database: server.database).createProject(
            name: "Second", appIds: [], redirectHosts: [], keyType: .es256)
        let b = try server.client(key: second.stripePublishableKey).post(
            "/v1/payment_methods", card, headers: key)
        #expect(a.status == 200 && b.status == 200 && a.string("id") != b.string("id"))
    }

    @Test func concurrentDuplicatesRunOnce() throws {
        let server = try EmbeddedTestServer()
        let card = [
            ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
            ("card[exp_year]", "2034"),
        ]
        let replies = Mutex<[(status: Int, id: String, code: String)]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let reply = try? server.sdk.post("/v1/payment_methods", card, headers: [("Idempotency-Key", "race")]) {
                replies.withLock { $0.append((reply.status, reply.string("id"), reply.string("error.code"))) }
            }
        }
        let all = replies.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0.status == 200 || $0.code == "idempotency_key_in_use" }, "\(all)")
        #expect(Set(all.filter { $0.status == 200 }.map(\.id)).count == 1)
        let stored = try server.database.read { try $0.query("SELECT id FROM payment_methods", []) }
        #expect(stored.count == 1)
    }
}

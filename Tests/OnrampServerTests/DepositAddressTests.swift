import Foundation
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// `crypto.deposit_addresses` (private preview): an address belongs to its project and mode; another
/// project's or mode's key neither reads nor lists it, and bad input writes nothing. (The official Python client
/// drives the rest in `Tests/python/embedded_stripe_client.py`.)
@Suite(.blocking) struct DepositAddressTests {
    @Test(arguments: DatabaseDriver.all)
    func anAddressIsItsProjectsAlone(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(driver: driver, transport: .live)
        let made = try server.backend.post(
            "/v1/crypto/deposit_addresses", [("network", "solana"), ("metadata[order]", "7")])
        #expect(made.status == 200 && made.string("object") == "crypto.deposit_address", "\(made)")
        let id = made.string("id")
        let address = try JSONDecoder().decode(CryptoDepositAddress.self, from: Data(made.text.utf8))
        #expect(address.metadata == ["order": "7"] && address.customer == nil && address.network == "solana")
        let own = try server.backend.get("/v1/crypto/deposit_addresses")
        #expect(
            try JSONDecoder().decode(StripeList<CryptoDepositAddress>.self, from: Data(own.text.utf8)).data == [address]
        )
        let other = try ProjectProvisioner(database: server.sandbox.database).createProject(
            name: "Other", appIds: [], redirectHosts: [], keyType: .es256)
        let live = try ProjectProvisioner(database: server.sandbox.database).createProject(
            name: "Live", appIds: [], redirectHosts: [], keyType: .es256, livemode: true)
        for key in [other.stripeSecretKey, live.stripeSecretKey] {
            let client = server.client(key: key)
            let read = try client.get("/v1/crypto/deposit_addresses/\(id)")
            #expect(read.status == 404 && read.string("error.code") == "resource_missing", "\(read)")
            let listed = try client.get("/v1/crypto/deposit_addresses")
            #expect((listed["data"] as? [Any])?.isEmpty == true, "\(listed)")
            let paged = try client.get("/v1/crypto/deposit_addresses", [("starting_after", id)])
            #expect(paged.status == 404, "an anchor of another project's is not found")
        }
        let count = try server.sandbox.database.read {
            try $0.query("SELECT COUNT(*) AS n FROM crypto_deposit_addresses", []).first?.int("n")
        }
        let refused = try server.backend.post("/v1/crypto/deposit_addresses", [("network", "tempo")])
        #expect(refused.status == 400 && refused.string("error.param") == "network", "\(refused)")
        let unknown = try server.backend.post(
            "/v1/crypto/deposit_addresses", [("network", "base"), ("wallet", "0x1")])
        #expect(unknown.status == 400 && unknown.string("error.code") == "parameter_unknown")
        #expect(
            try server.sandbox.database.read {
                try $0.query("SELECT COUNT(*) AS n FROM crypto_deposit_addresses", []).first?.int("n")
            } == count, "nothing written")
    }

    /// A simulated deposit captures one PaymentIntent and its event together; a live key, another project's key,
    /// a bad amount, a token the address does not take and a repeated transfer are refused and write nothing.
    @Test(arguments: DatabaseDriver.all)
    func aDepositCapturesAnIntentOnceAndOnlyForItsProject(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(driver: driver, transport: .live)
        let made = try server.backend.post("/v1/crypto/deposit_addresses", [("network", "solana")])
        let path = "/v1/test_helpers/crypto/deposit_addresses/\(made.string("id"))/deposit"
        func counts() throws -> [Int64] {
            try server.sandbox.database.read { connection in
                try ["crypto_deposits", "outbox_events"].map {
                    try connection.query("SELECT COUNT(*) AS n FROM \($0)", []).first?.int("n") ?? -1
                }
            }
        }
        let before = try counts()
        let provisioner = ProjectProvisioner(database: server.sandbox.database)
        let other = try provisioner.createProject(name: "Other", appIds: [], redirectHosts: [], keyType: .es256)
        let live = try provisioner.createProject(
            name: "Live", appIds: [], redirectHosts: [], keyType: .es256, livemode: true)
        let refusals: [(StripeTestClient, [(String, String)], Int, String)] = [
            (server.client(key: other.stripeSecretKey), [("amount", "5")], 404, "resource_missing"),
            (server.client(key: live.stripeSecretKey), [("amount", "5")], 400, "livemode_test_helper"),
            (server.backend, [("amount", "5.1234567")], 400, "parameter_invalid"),
            (server.backend, [("amount", "-5")], 400, "parameter_invalid"),
            (server.backend, [("amount", "1000000")], 400, "parameter_invalid"),
            (server.backend, [("amount", "5"), ("token_currency", "usdt")], 400, "parameter_invalid"),
            (server.client(key: server.credentials.stripePublishableKey), [("amount", "5")], 403, ""),
        ]
        for (client, form, status, code) in refusals {
            let refused = try client.post(path, form)
            #expect(refused.status == status, "\(form): \(refused)")
            if !code.isEmpty { #expect(refused.string("error.code") == code, "\(form): \(refused)") }
        }
        #expect(try counts() == before, "nothing written")

        let intent = try server.backend.post(path, [("amount", "25"), ("transaction_hash", "5xTransfer")])
        #expect(intent.status == 200 && intent.string("status") == "succeeded", "\(intent)")
        #expect(intent["amount"] as? Int == 2500 && intent.string("currency") == "usd")
        #expect(try counts() == [before[0] + 1, before[1] + 1], "the deposit and its event, together")
        let repeated = try server.backend.post(path, [("amount", "25"), ("transaction_hash", "5xTransfer")])
        #expect(repeated.status == 400 && repeated.string("error.param") == "transaction_hash", "\(repeated)")
        #expect(try counts() == [before[0] + 1, before[1] + 1])
        // The same transfer hash is another project's own business.
        let theirs = try server.client(key: other.stripeSecretKey).post(
            "/v1/crypto/deposit_addresses", [("network", "base")])
        let theirDeposit = try server.client(key: other.stripeSecretKey).post(
            "/v1/test_helpers/crypto/deposit_addresses/\(theirs.string("id"))/deposit",
            [("amount", "1"), ("transaction_hash", "5xTransfer")])
        #expect(theirDeposit.status == 200, "\(theirDeposit)")

        let id = intent.string("id")
        #expect(try server.backend.get("/v1/payment_intents/\(id)").string("id") == id)
        #expect(try server.client(key: other.stripeSecretKey).get("/v1/payment_intents/\(id)").status == 404)
        let publishable = server.client(key: server.credentials.stripePublishableKey)
        let secret = intent.string("client_secret")
        #expect(try publishable.get("/v1/payment_intents/\(id)", [("client_secret", secret)]).string("id") == id)
        #expect(try publishable.get("/v1/payment_intents/\(id)", [("client_secret", secret + "x")]).status == 404)
        let events = try server.backend.get("/v1/events", [("type", "payment_intent.succeeded")])
        #expect(
            (events["data"] as? [[String: Any]])?.compactMap { ($0["data"] as? [String: Any])?["object"] }
                .compactMap { ($0 as? [String: Any])?["id"] as? String } == [id], "\(events)")
    }
}

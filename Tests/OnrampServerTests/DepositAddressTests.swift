import Foundation
import OnrampServer
import OnrampTestSupport
import Testing

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
}

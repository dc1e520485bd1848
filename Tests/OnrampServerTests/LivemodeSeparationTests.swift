import Foundation
import HTTPServer
import OnrampStore
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// A project holding both test and live keys: a key sees only the objects of its own mode.
@Suite(.blocking) struct LivemodeSeparationTests {
    @Test func aLiveKeyDoesNotSeeTestEndpointsOrEvents() throws {
        let server = try EmbeddedTestServer()
        let liveKey = try Self.addLiveKey(to: server)
        let created = try server.backend.post(
            "/v1/webhook_endpoints", [("url", "https://hooks.example.com/a"), ("enabled_events[]", "*")])
        #expect(created.status == 200, "\(created)")
        let endpointId = created.string("id")
        let live = server.client(key: liveKey)
        #expect((try live.get("/v1/webhook_endpoints")["data"] as? [Any])?.isEmpty == true)
        #expect(try live.get("/v1/webhook_endpoints/\(endpointId)").status == 404)
        #expect(try server.backend.get("/v1/webhook_endpoints/\(endpointId)").status == 200)
        #expect((try live.get("/v1/events")["data"] as? [Any])?.isEmpty == true)
    }

    /// Sessions and events are found by their ids alone and their owner checked after (so that
    /// PostgreSQL searches the primary key, `QueryPlanTests`): neither the other mode's key nor another
    /// project's key reads or checks them out.
    @Test func aSessionAndItsEventsAreTheirProjectAndModesAlone() throws {
        let server = try EmbeddedTestServer()
        let (user, id) = try server.paidSession()
        let event = try #require(
            try server.database.read {
                try $0.query("SELECT id FROM outbox_events WHERE family = 'stripe' ORDER BY id LIMIT 1").first?.string(
                    "id")
            })
        let other = try ProjectProvisioner(database: server.database, clock: server.clock).createProject(
            name: "Another", appIds: [], redirectHosts: [], keyType: .es256, livemode: false)
        let live = server.client(key: try Self.addLiveKey(to: server))
        let another = server.client(key: other.stripeSecretKey)
        for stranger in [live, another] {
            #expect(try stranger.get("/v1/crypto/onramp_sessions/\(id)").status == 404)
            #expect(try stranger.get("/v1/events/\(event)").status == 404)
        }
        // The live key passes the user's Link token (same project) and meets the session's mode; the other
        // project is refused that token first.
        #expect(try live.post("/v1/crypto/onramp_sessions/\(id)/checkout", [], headers: user.oauth).status == 404)
        #expect(try another.post("/v1/crypto/onramp_sessions/\(id)/checkout", [], headers: user.oauth).status == 401)
        #expect(try server.backend.get("/v1/crypto/onramp_sessions/\(id)").string("id") == id)
        #expect(try server.backend.get("/v1/events/\(event)").string("id") == event)
    }

    /// A live secret key for the server's project.
    static func addLiveKey(to server: EmbeddedTestServer) throws -> String {
        let liveKey = "sk_live_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try server.database.transaction {
            try APIKeyRepository(connection: $0).insert(
                id: "key_live_" + UUID().uuidString.prefix(8), projectId: server.credentials.projectId,
                kind: .stripeSecret, publicKey: nil, secret: liveKey, livemode: true, createdAt: 0)
        }
        return liveKey
    }
}

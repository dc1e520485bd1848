import Foundation
import HTTPServer
import OnrampStore
import OnrampTestSupport
import Testing

@testable import OnrampServer

/// A project holding both test and live keys: a key sees only the objects of its own mode.
@Suite(.blocking) struct LivemodeSeparationTests {
    @Test func aLiveKeyDoesNotSeeTestEndpointsOrEvents() throws {
        let server = try EmbeddedTestServer()
        let liveKey = "sk_live_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try server.database.transaction {
            try APIKeyRepository(connection: $0).insert(
                id: "key_live_separation", projectId: server.credentials.projectId, kind: .stripeSecret, publicKey: nil,
                secret: liveKey, livemode: true, createdAt: 0)
        }
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
}

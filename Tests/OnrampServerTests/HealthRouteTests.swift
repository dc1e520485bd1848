import Foundation
import HTTPServer
import OnrampStore
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// `/healthz` answers from the database's ping: 200 while it answers, 503 once it does not, each
/// time (the two answers are built once and served as they are).
@Suite struct HealthRouteTests {
    @Test func healthFollowsTheDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("health.db").path)
        var router = Router()
        OperationsRoutes.register(on: &router, database: database, metrics: Metrics())
        func health() -> (Int, String) {
            let response = router.respond(to: HTTPRequest(method: "GET", path: "/healthz")).response
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        for _ in 0..<2 {
            let (status, body) = health()
            #expect(status == 200)
            #expect(body.contains(#""database":"ok""#) && body.contains(#""status":"ok""#))
        }
        database.close()
        for _ in 0..<2 {
            let (status, body) = health()
            #expect(status == 503)
            #expect(body.contains(#""database":"unreachable""#) && body.contains(#""status":"unavailable""#))
        }
    }
}

import Foundation
import HTTPServer
import OnrampRuntime
import OnrampStore
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// `/healthz` answers from the database's ping, made at most once a second: 200 while it answers, 503 once
/// it does not — within a second of stopping (the two answers are built once and served as they are).
@Suite struct HealthRouteTests {
    /// A clock the test moves.
    final class TestTime: Sendable {
        let seconds = Locked(100.0)
    }

    @Test func healthFollowsTheDatabaseWithinASecond() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("health.db").path)
        let time = TestTime()
        var router = Router()
        OperationsRoutes.register(
            on: &router, database: database, metrics: Metrics(),
            health: HealthCheck(database: database, now: { time.seconds.withLock { $0 } }))
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
        // Within the second the last check answers; once it is a second old, the next probe pings again.
        time.seconds.withLock { $0 += 0.9 }
        #expect(health().0 == 200, "a check 0.9 s old answers")
        time.seconds.withLock { $0 += 0.1 }
        for _ in 0..<2 {
            let (status, body) = health()
            #expect(status == 503)
            #expect(body.contains(#""database":"unreachable""#) && body.contains(#""status":"unavailable""#))
        }
    }

    /// A clock that went back (a test clock, a restored snapshot) never keeps an old answer.
    @Test func aCheckFromTheFutureIsNotTrusted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("health.db").path)
        let time = TestTime()
        let check = HealthCheck(database: database, now: { time.seconds.withLock { $0 } })
        #expect(check.isHealthy())
        database.close()
        time.seconds.withLock { $0 -= 5 }
        #expect(!check.isHealthy())
    }
}

import Foundation
import OnrampStore
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

@Suite("Webhooks with several server instances", .blocking)
struct WebhookSharedDatabaseTests {
    /// Two server instances (each with its own connection pool and dispatcher) on one database
    /// deliver every event exactly once while events keep being committed.
    @Test(arguments: DatabaseDriver.all)
    func twoInstancesDeliverEachEventExactlyOnce(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver()
            try fixture.subscribe(.stripe, url: receiver.url)
            try fixture.subscribe(.cdp, url: receiver.url)
            var instances: [(OnrampApplication, any Database)] = []
            for _ in 0..<2 {
                let database = try DatabaseURL.open(url)
                let context = ServerContext(database: database, publicBaseURL: "http://127.0.0.1:1", appAttestRoots: [])
                let application = try OnrampApplication(context: context)
                application.startWorkers(interval: 0.02)
                instances.append((application, database))
            }
            defer {
                for (application, database) in instances {
                    application.stopWorkers()
                    database.close()
                }
            }
            var expected: Set<String> = []
            for index in 0..<200 {
                expected.insert(index.isMultiple(of: 2) ? try fixture.emitStripeEvent() : try fixture.emitCDPEvent())
            }
            #expect(receiver.wait(timeout: 60) { Set($0.compactMap(\.eventId)) == expected })
            Thread.sleep(forTimeInterval: 0.5)  // room for a duplicate to show up
            let ids = receiver.deliveries.compactMap(\.eventId)
            #expect(ids.count == expected.count, "duplicates: \(ids.count - Set(ids).count)")
            #expect(Set(ids) == expected)
            // Each attempt is recorded after its receiver answered: on a loaded machine that can take longer
            // than the half second above, so wait for the records (and still count exactly one each).
            func recorded() throws -> Int64? {
                try fixture.database.read {
                    try $0.query("SELECT COUNT(*) AS n FROM webhook_attempts").first?.int("n")
                }
            }
            for _ in 0..<500 where try recorded() ?? 0 < Int64(expected.count) { Thread.sleep(forTimeInterval: 0.02) }
            #expect(try recorded() == Int64(expected.count))
            #expect(receiver.deliveries.count == expected.count, "no duplicate while the records were written")
        }
    }

    /// The dispatcher watches the database's commits (inotify on SQLite's log, `LISTEN` on PostgreSQL),
    /// so an event another instance commits is sent at once, not at its next interval (an hour here).
    @Test(arguments: DatabaseDriver.all)
    func anEventCommittedElsewhereWakesAnIdleDispatcher(driver: DatabaseDriver) async throws {
        try await withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver()
            try fixture.subscribe(.stripe, url: receiver.url)
            let database = try DatabaseURL.open(url)
            defer { database.close() }
            let workers = BackgroundWorkers()
            defer { workers.stopAll() }
            WebhookDispatcher(
                context: ServerContext(database: database, publicBaseURL: "http://127.0.0.1:1", appAttestRoots: [])
            )
            .start(on: workers, interval: 3600)
            try await Task.sleep(for: .milliseconds(300))  // its first round is over: it waits out the hour
            let event = try fixture.emitStripeEvent()
            #expect(await receiver.wait(timeout: 20) { $0.contains { $0.eventId == event } })
        }
    }
}

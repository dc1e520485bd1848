import Foundation
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

@Suite("Webhook delivery across a crash")
struct WebhookCrashTests {
    /// Kills `onramp serve` with SIGKILL while it delivers, commits more events while it is down,
    /// restarts it: every committed event arrives at least once, always with the same id.
    @Test(.timeLimit(.minutes(3)), arguments: DatabaseDriver.all)
    func everyCommittedEventArrivesAfterKillNine(driver: DatabaseDriver) async throws {
        let binary = PythonVerifier.packageRoot.appendingPathComponent(".build/debug/onramp")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the onramp product first")
        try await withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            // The receiver kills the first instance once, from its 41st delivery on, while the rest are in flight.
            let firstInstance = Mutex<Int32?>(nil)
            let receiver = try WebhookReceiver { index in
                if index >= 40, let pid = firstInstance.withLock({ $0.take() }) { kill(pid, SIGKILL) }
                Thread.sleep(forTimeInterval: 0.005)
                return 200
            }
            try fixture.subscribe(.stripe, url: receiver.url)
            var committed: [String] = []
            for _ in 0..<300 { committed.append(try fixture.emitStripeEvent()) }

            let first = try Self.serve(binary, database: url)
            firstInstance.withLock { $0 = first.processIdentifier }
            #expect(await receiver.wait(timeout: 30) { $0.count > 40 })
            // Killed here if the 41st delivery never came (the expectation above has failed then).
            if let pid = firstInstance.withLock({ $0.take() }) { kill(pid, SIGKILL) }
            #expect(await Eventually.exit(of: first) == SIGKILL)
            let atKill = Set(receiver.deliveries.compactMap(\.eventId))
            #expect(atKill.count < committed.count, "the kill must happen while deliveries are in flight")

            for _ in 0..<100 { committed.append(try fixture.emitStripeEvent()) }
            let second = try Self.serve(binary, database: url)
            defer {
                second.terminate()
                second.waitUntilExit()
            }
            // Claims leased by the killed instance become due again when their 30 s lease ends.
            #expect(await receiver.wait(timeout: 90) { Set($0.compactMap(\.eventId)).isSuperset(of: committed) })
            let received = receiver.deliveries.compactMap(\.eventId)
            #expect(Set(received) == Set(committed), "no event may be lost or invented")
            // Deliveries sent but not recorded before the kill are sent again (same id) once their lease ends.
            let settled = await receiver.wait(timeout: 60) { _ in
                let open = try? fixture.database.read {
                    try $0.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'").first?
                        .int("n")
                }
                return open == 0
            }
            #expect(settled, "every delivery row ends succeeded")
        }
    }

    static func serve(_ binary: URL, database: String) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--port", "0", "--database", database, "--access-log", "off", "--console-token",
            "webhook-crash-test-token",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }
}

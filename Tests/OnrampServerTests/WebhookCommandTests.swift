import Foundation
import HTTPServer
import OnrampBackend
import OnrampClient
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// `onramp trigger`, `onramp events list --json` and `onramp events redeliver` on a real database.
@Suite("Webhook commands", .blocking)
struct WebhookCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = PythonVerifier.packageRoot.appendingPathComponent(".build/debug/onramp")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func triggerListAndRedeliver() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            let projectId = fixture.projectId
            fixture.database.close()

            let trigger = try Self.run(["trigger", "onramp.transaction.success", "--database", url])
            #expect(trigger.status == 0)
            let lines = trigger.output.split(separator: "\n")
            let ids = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
            #expect(ids.count == 4, "created, updated (in progress), updated and success")
            #expect(lines.allSatisfy { $0.contains("console: /console/events/") }, "where to see each")

            let listed = try Self.run(["events", "list", "--json", "--project", projectId, "--database", url])
            let events = try #require(try JSONParser().parse(listed.output).arrayValue)
            #expect(Set(events.compactMap { $0["id"]?.stringValue }) == Set(ids))
            let types = Set(events.compactMap { $0["type"]?.stringValue })
            #expect(
                types == ["onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success"])
            #expect(events.allSatisfy { $0["family"] == "cdp" })
            let success = try #require(
                events.first { $0["type"] == "onramp.transaction.success" }.flatMap { $0["id"]?.stringValue })
            let payload = try DatabaseFixtureReader.payload(url: url, eventId: success)
            #expect(payload["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS")
            #expect(payload["isAppToApp"] == true)

            #expect(try Self.run(["events", "redeliver", success, "--database", url]).status == 0)
            #expect(try Self.run(["events", "redeliver", "no-such-event", "--database", url]).status == 1)
            #expect(try Self.run(["trigger", "no.such.event", "--database", url]).status == 1)
        }
    }

    /// Every event type either family sends can be triggered, and each writes the events a real flow writes.
    @Test(arguments: DatabaseDriver.all)
    func everyEventTypeCanBeTriggered(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            fixture.database.close()
            let expected: [String: [String]] = [
                "offramp.transaction.created": ["offramp.transaction.created"],
                "offramp.transaction.success": [
                    "offramp.transaction.created", "offramp.transaction.success", "offramp.transaction.updated",
                ],
                "offramp.transaction.failed": [
                    "offramp.transaction.created", "offramp.transaction.failed", "offramp.transaction.updated",
                ],
                "payment_intent.succeeded": ["payment_intent.succeeded"],
                "crypto.onramp_session.updated": ["crypto.onramp_session.updated"],
                "onramp.transaction.failed": [
                    "onramp.transaction.created", "onramp.transaction.failed", "onramp.transaction.updated",
                ],
            ]
            for (type, types) in expected {
                let trigger = try Self.run(["trigger", type, "--database", url])
                #expect(trigger.status == 0, "\(type): \(trigger.output)")
                let written = trigger.output.split(separator: "\n").compactMap {
                    $0.split(separator: " ").dropFirst().first
                }
                #expect(Set(written.map(String.init)) == Set(types), "\(type): \(trigger.output)")
            }
            let listed = try Self.run(["events", "list", "--json", "--limit", "100", "--database", url])
            let events = try #require(try JSONParser().parse(listed.output).arrayValue)
            let intent = try #require(events.first { $0["type"] == "payment_intent.succeeded" })
            #expect(intent["family"] == "stripe")
            let success = try #require(events.first { $0["type"] == "offramp.transaction.success" }?["id"]?.stringValue)
            let payload = try DatabaseFixtureReader.payload(url: url, eventId: success)
            #expect(payload["status"] == "TRANSACTION_STATUS_SUCCESS", "\(payload)")
        }
    }

    /// `onramp listen --database …` registers a Stripe and a CDP relay; when the second is refused (the
    /// project already has 16 CDP subscriptions) it fails and leaves neither behind.
    @Test func listenThatCannotRegisterLeavesNothingBehind() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            for _ in 0..<16 { try fixture.subscribe(.cdp, url: "http://localhost:4242/hook") }
            let count = { (family: String) in
                try fixture.database.read {
                    try $0.query("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE family = ?", [.text(family)])
                        .first?.int("n")
                }
            }
            let listen = try Self.run(["listen", "--forward-to", "http://localhost:4243/", "--database", url])
            #expect(listen.status != 0)
            #expect(try count("stripe") == 0)
            #expect(try count("cdp") == 16)
            fixture.database.close()
        }
    }

    /// `onramp listen --server … --api-key …` against a running `onramp serve`: it registers a relay,
    /// forwards a triggered event with its signature intact, prints a line, and unregisters on SIGINT.
    @Test func listenForwardsSignedDeliveriesAndCleansUp() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            let key = fixture.credentials.stripeSecretKey
            fixture.database.close()
            let serverOutput = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID()).txt")
            #expect(FileManager.default.createFile(atPath: serverOutput.path, contents: nil))
            defer { try? FileManager.default.removeItem(at: serverOutput) }
            let server = Process()
            server.executableURL = PythonVerifier.packageRoot.appendingPathComponent(".build/debug/onramp")
            server.arguments = [
                "serve", "--port", "0", "--database", url, "--access-log", "off", "--console-token",
                "webhook-command-test-token",
            ]
            server.standardOutput = try FileHandle(forWritingTo: serverOutput)
            try server.run()
            defer {
                server.terminate()
                server.waitUntilExit()
            }
            var port = ""
            for _ in 0..<100 where port.isEmpty {
                Thread.sleep(forTimeInterval: 0.05)
                let text = (try? String(contentsOf: serverOutput, encoding: .utf8)) ?? ""
                if let range = text.range(of: "http://127.0.0.1:") {
                    port = String(text[range.upperBound...].prefix { $0.isNumber })
                }
            }
            let receiver = try WebhookReceiver()
            let listen = Process()
            listen.executableURL = server.executableURL
            listen.arguments = [
                "listen", "--forward-to", receiver.url, "--server", "http://127.0.0.1:\(port)", "--api-key", key,
            ]
            let output = Pipe()
            listen.standardOutput = output
            try listen.run()
            let reader = LineReader(output.fileHandleForReading)
            let ready = try #require(reader.next(timeout: 10))
            let secret = try #require(ready.split(separator: " ").first { $0.hasPrefix("whsec_") }.map(String.init))

            let trigger = try Self.run(["trigger", "crypto.onramp_session.updated", "--database", url])
            let eventId = String(trigger.output.split(separator: " ").first ?? "")
            let line = try #require(reader.next(timeout: 10))
            #expect(line.contains("crypto.onramp_session.updated [\(eventId)]"))
            #expect(line.contains("[200]"))
            let delivery = try #require(receiver.deliveries.first)
            let event = try WebhookVerifier(secret: secret).verifyStripe(
                payload: delivery.body, signatureHeader: delivery.headers["stripe-signature"])
            #expect(event.id == eventId)

            kill(listen.processIdentifier, SIGINT)
            listen.waitUntilExit()
            #expect(listen.terminationStatus == 0)
            let database = try DatabaseURL.open(url)
            defer { database.close() }
            let remaining = try database.read {
                try $0.query("SELECT COUNT(*) AS n FROM webhook_subscriptions").first?.int("n")
            }
            #expect(remaining == 0)
        }
    }
}

/// Reads a stored event payload.
enum DatabaseFixtureReader {
    static func payload(url: String, eventId: String) throws -> JSONValue {
        let database = try DatabaseURL.open(url)
        defer { database.close() }
        let text = try database.read {
            try $0.query("SELECT payload FROM outbox_events WHERE id = ?", [.text(eventId)]).first?.string("payload")
        }
        return try JSONParser().parse(text ?? "null")
    }
}

/// Reads lines from a pipe with a timeout.
final class LineReader: @unchecked Sendable {
    // `lines` is guarded by `lock`; the handle is read on its own thread only.
    private let lock = NSCondition()
    private var lines: [String] = []

    init(_ handle: FileHandle) {
        Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    self.lock.withLock {
                        self.lines.append(line)
                        self.lock.broadcast()
                    }
                }
            }
        }.start()
    }

    /// The next line, or `nil` after `timeout` seconds.
    func next(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while lines.isEmpty {
            if !lock.wait(until: deadline) { return nil }
        }
        return lines.removeFirst()
    }
}

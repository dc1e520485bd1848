import Foundation
import HTTPServer
import OnrampStore
import Testing

@testable import OnrampServer

/// `onramp trigger`, `onramp events list --json` and `onramp events redeliver` on a real database.
@Suite("Webhook commands")
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
            let ids = trigger.output.split(separator: "\n").map(String.init)
            #expect(ids.count == 4, "created, updated (in progress), updated and success")

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

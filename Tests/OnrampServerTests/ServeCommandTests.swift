import Foundation
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `onramp serve` as a real process: it prints where it listens, and on SIGTERM it finishes the
/// requests in flight before exiting 0; when idle it exits at once.
@Suite(.serialized, .blocking) struct ServeCommandTests {
    /// Given to every server these tests start, so none keeps a token in the user's `~/.onramp`.
    static let consoleToken = "serve-command-test-token"

    @Test func sigtermLetsARequestInFlightComplete() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port) = try Self.serve(in: directory)

        // A request whose body is still arriving when SIGTERM comes.
        let client = try RawHTTPClient(port: port)
        let body = Array(#"{"challenge":"x","ios":{"keyId":"k","assertion":"a"}}"#.utf8)
        try client.send(
            Array(
                "POST /platform/v2/onramp/mobile/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                    .utf8)
                + body.prefix(10))
        Thread.sleep(forTimeInterval: 0.2)
        kill(process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.3)
        try client.send(Array(body.dropFirst(10)))
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.text.contains(#""errorType":"invalid_request""#))
        #expect(Self.exits(process, within: 40), "onramp serve still running 40 s after SIGTERM")
        #expect(process.terminationStatus == 0)
        // Once stopped, nothing listens.
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port).request("GET", "/healthz") }
    }

    /// On every interface (`--host 0.0.0.0`) without `--public-url`, links name an address another device can
    /// open: the machine's LAN address (loopback only when it has none), printed at start and answering there.
    @Test func everyInterfaceGivesLinksAnAddressAPhoneCanOpen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = Python.onrampBinary
        process.arguments = [
            "serve", "--host", "0.0.0.0", "--port", "0", "--database", "sqlite:\(directory.path)/onramp.db",
            "--access-log", "off", "--console-token", Self.consoleToken,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        _ = output.fileHandleForReading.availableDataLine()
        let links = String(decoding: output.fileHandleForReading.availableDataLine(), as: UTF8.self)
        #expect(links.hasPrefix("links and phones on this network: http://"), "\(links)")
        let authority = try #require(links.split(separator: "/").dropFirst().last)
        let parts = authority.split(separator: ":")
        #expect(parts.count == 2 && parts[0] != "0.0.0.0", "\(links)")
        #expect(parts[0].split(separator: ".").count == 4, "an IPv4 address: \(links)")
        // The server answers at the address it hands out (loopback stands in when the machine has no LAN).
        let health = try Data(contentsOf: try #require(URL(string: "http://\(authority)/healthz")))
        #expect(String(decoding: health, as: UTF8.self).contains(#""status":"ok""#))
    }

    /// With nothing in flight, SIGTERM ends the process without waiting out a worker's interval (the
    /// janitor sleeps a minute between sweeps; stopping used to wait 10 s for it). The bound leaves room
    /// for a loaded machine while staying under those 10 s.
    @Test func sigtermWhenIdleExitsAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port) = try Self.serve(in: directory)
        #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(8)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!process.isRunning, "still running 8 s after SIGTERM with no request in flight")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// `onramp state export` writes a saved sandbox, `serve --import` starts a new database from it (the
    /// saved secret key works there), and `--export-on-exit` saves the state again at SIGTERM.
    @Test func stateExportImportAndExportOnExitThroughTheCommandLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try DatabaseURL.open("sqlite:\(directory.path)/source.db")
        try source.migrate(Schema.migrations)
        let credentials = try ProjectProvisioner(database: source).createProject(
            name: "Saved Wallet", appIds: [], redirectHosts: [], keyType: .es256)
        source.close()
        let saved = directory.appendingPathComponent("saved.json").path
        let export = Process()
        export.executableURL = Python.onrampBinary
        export.arguments = ["state", "export", saved, "--database", "sqlite:\(directory.path)/source.db"]
        try export.run()
        export.waitUntilExit()
        #expect(export.terminationStatus == 0)
        let permissions = try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "the file holds key hashes and customer data")

        let again = directory.appendingPathComponent("again.json").path
        let (process, port) = try Self.serve(
            in: directory, database: "restored.db", extra: ["--import", saved, "--export-on-exit", again])
        let events = try RawHTTPClient(port: port).request(
            "GET", "/v1/events", headers: [("Authorization", "Bearer \(credentials.stripeSecretKey)")])
        #expect(events.status == 200, "\(events.text)")
        kill(process.processIdentifier, SIGTERM)
        #expect(Self.exits(process, within: 20), "onramp serve still running 20 s after SIGTERM")
        #expect(process.terminationStatus == 0)
        let exported = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: again))))
        #expect(exported["format"] == "onramp-state")
        #expect(exported["tables"]?["projects"]?["rows"]?.arrayValue?.count == 1)
        #expect(exported.serializedString.contains("Saved Wallet"))
    }

    /// `state export` and `serve --export-on-exit` never delete or replace what is not a regular file: a
    /// directory (`.` included), or a link to one, is refused with everything in it kept; a regular file is
    /// replaced whole, still readable by its owner only.
    @Test func stateExportNeverReplacesADirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        let precious = directory.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = precious.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: kept)
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)
        let database = "sqlite:\(directory.path)/source.db"
        func export(_ path: String) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = Python.onrampBinary
            process.currentDirectoryURL = precious
            process.arguments = ["state", "export", path, "--database", database]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, text)
        }
        for path in [precious.path, ".", link.path] {
            let (status, message) = try export(path)
            #expect(status == 1 && message.contains("never over a directory"), "\(path): \(message)")
            #expect(try String(contentsOf: kept, encoding: .utf8) == "mine", "\(path) left \(kept.path) alone")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: precious.path)
        #expect(leftovers == ["notes.txt"], "no temporary file is left behind")

        let file = directory.appendingPathComponent("saved.json")
        try Data("old".utf8).write(to: file)
        #expect(try export(file.path).0 == 0)
        let replaced = try JSONParser().parse(Array(try Data(contentsOf: file)))
        #expect(replaced["format"] == "onramp-state")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

        let serve = Process()
        serve.executableURL = Python.onrampBinary
        serve.arguments = [
            "serve", "--port", "0", "--database", database, "--export-on-exit", precious.path, "--console-token",
            Self.consoleToken,
        ]
        serve.standardOutput = Pipe()
        serve.standardError = Pipe()
        try serve.run()
        #expect(Self.exits(serve, within: 20))
        #expect(serve.terminationStatus != 0, "refused at start, before any state exists to lose")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "mine")
    }

    /// On PostgreSQL (shared by instances) without `ONRAMP_DATA_KEY`, `serve` says at start what will not
    /// carry across instances; with the key it says nothing.
    @Test func servingPostgresWithoutADataKeyWarns() throws {
        guard let url = ProcessInfo.processInfo.environment["ONRAMP_TEST_POSTGRES_URL"] else {
            guard ProcessInfo.processInfo.environment["ONRAMP_SKIP_POSTGRES"] == "1" else {
                throw WebhookMissingPostgres()
            }
            return
        }
        func firstError(dataKey: String?) throws -> String {
            let process = Process()
            process.executableURL = Python.onrampBinary
            process.arguments = [
                "serve", "--port", "0", "--database", url, "--access-log", "off", "--console-token", Self.consoleToken,
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["ONRAMP_DATA_KEY"] = dataKey
            process.environment = environment
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            _ = output.fileHandleForReading.availableDataLine()  // it listens: whatever it warns is said
            kill(process.processIdentifier, SIGTERM)
            #expect(Self.exits(process, within: 20))
            return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        let warned = try firstError(dataKey: nil)
        #expect(warned.contains("warning: ONRAMP_DATA_KEY is not set") && warned.contains("idempotency records"))
        #expect(!(try firstError(dataKey: String(repeating: "ab", count: 32))).contains("ONRAMP_DATA_KEY"))
    }

    /// Waits for `process` to exit; kills it after `seconds` (a hung child must fail its test, not hang the
    /// whole run).
    private static func exits(_ process: Process, within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// Starts `onramp serve` on a free port with its database in `directory`.
    private static func serve(in directory: URL, database: String = "onramp.db", extra: [String] = []) throws
        -> (Process, Int)
    {
        let process = Process()
        process.executableURL = Python.onrampBinary
        process.arguments =
            [
                "serve", "--port", "0", "--database", "sqlite:\(directory.path)/\(database)", "--access-log", "off",
                "--console-token", Self.consoleToken,
            ] + extra
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableDataLine(), as: UTF8.self)
        let port = try #require(
            line.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) })
        return (process, port)
    }
}

extension FileHandle {
    /// Reads up to the first newline (the server's "listening on" line).
    fileprivate func availableDataLine() -> [UInt8] {
        var line: [UInt8] = []
        while true {
            let byte = readData(ofLength: 1)
            guard let first = byte.first, first != 0x0A else { return line }
            line.append(first)
        }
    }
}

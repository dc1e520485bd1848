import Foundation
import OnrampCrypto
import OnrampPlatform
import OnrampTestSupport
import OnrampWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CLI talks to the running server: `onramp serve` keeps its console token in `$ONRAMP_HOME` (stable across
/// restarts), and `project create`, `project list` and `console`, run from any other folder, reach that server
/// with it; without a server, a token or a database they say what to do and make no database.
@Suite(.serialized, .blocking) struct CLIServerTests {
    /// A folder of its own, removed afterwards.
    final class Folder {
        let url: URL
        init(_ name: String) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        var path: String { url.path }
    }

    /// Runs `onramp` in `folder` with `environment` added (and no console token from the test's own
    /// environment); its status, output and errors.
    static func onramp(_ arguments: [String], in folder: Folder, environment: [String: String] = [:]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        try OnrampCLI.run(
            arguments, in: folder.url,
            environment: environment.mapValues { Optional($0) }.merging(["ONRAMP_CONSOLE_TOKEN": nil]) { given, _ in
                given
            })
    }

    /// The environment of an `onramp` process keeping its console token in `home` alone.
    static func keeping(in home: Folder) -> [String: String?] {
        ["ONRAMP_CONSOLE_TOKEN": nil, "ONRAMP_HOME": home.path]
    }

    /// `onramp serve` on a free port in `folder`, keeping its token in `home`; the process and its URL.
    static func serve(in folder: Folder, home: Folder, _ flags: [String] = []) throws -> (Process, String) {
        let process = OnrampCLI.process(
            ["serve", "--port", "0", "--access-log", "off"] + flags, in: folder.url, environment: keeping(in: home))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != 0x0A { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        let url = try #require(text.split(separator: " ").first { $0.hasPrefix("http://") }, "\(text)")
        return (process, String(url))
    }

    static func stop(_ process: Process) {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    @Test func theCLIReachesTheServerFromAnotherFolderWithTheKeptToken() throws {
        let serverFolder = try Folder("cli-server")
        let elsewhere = try Folder("cli-elsewhere")
        let home = try Folder("cli-home")
        var (server, url) = try Self.serve(in: serverFolder, home: home)
        defer { Self.stop(server) }
        let tokenFile = home.url.appendingPathComponent("console-token")
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.utf8.count >= 32)
        let permissions = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        let environment = ["ONRAMP_HOME": home.path]
        let created = try Self.onramp(
            ["project", "create", "--name", "Far Wallet", "--server", url, "--json"], in: elsewhere,
            environment: environment)
        #expect(created.status == 0, "\(created.errors)")
        let credentials = try JSONParser().parse(Array(created.output.utf8))
        let projectId = try #require(credentials["projectId"]?.stringValue)
        #expect(credentials["stripeSecretKey"]?.stringValue?.hasPrefix("sk_test_") == true)

        let listed = try Self.onramp(["project", "list", "--server", url], in: elsewhere, environment: environment)
        #expect(listed.status == 0 && listed.output.contains(projectId) && listed.output.contains("Far Wallet"))
        // A key revoked from the CLI is refused by the server at once.
        let keyId = try #require(credentials["cdpApiKeyId"]?.stringValue)
        let key = try CDPAPIKey(id: keyId, secret: try #require(credentials["cdpApiKeySecret"]?.stringValue))
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let path = "/onramp/v1/buy/user/cli-user/transactions"
        func listTransactions() throws -> Int {
            let jwt = try key.jwt(method: "GET", host: "127.0.0.1", path: path, at: Date())
            return try RawHTTPClient(port: port).request("GET", path, headers: [("Authorization", "Bearer \(jwt)")])
                .status
        }
        #expect(try listTransactions() == 200)
        let revoked = try Self.onramp(
            ["project", "revoke-key", "--key", keyId, "--server", url], in: elsewhere, environment: environment)
        #expect(
            revoked.status == 0 && revoked.output.contains("revoked \(keyId) of project \(projectId)"), "\(revoked)")
        #expect(try listTransactions() == 401)
        let unknown = try Self.onramp(
            ["project", "revoke-key", "--key", "nope", "--server", url], in: elsewhere, environment: environment)
        #expect(unknown.status != 0 && unknown.errors.contains("No API key nope"), "\(unknown)")

        // The server's database has it; the other folder has no database.
        #expect(FileManager.default.fileExists(atPath: serverFolder.url.appendingPathComponent("onramp.db").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)

        // `onramp console` prints a sign-in link that works, and the same one after a restart.
        let link = try Self.onramp(["console", "--server", url], in: elsewhere, environment: environment)
        #expect(
            link.status == 0
                && link.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(url)/console/login?token=\(token)")
        let signIn = try RawHTTPClient(port: port).request("GET", "/console/login?token=\(token)")
        #expect(signIn.status == 303, "\(signIn.status)")
        Self.stop(server)
        (server, url) = try Self.serve(in: serverFolder, home: home)
        let again = try Self.onramp(["console", "--server", url], in: elsewhere, environment: environment)
        #expect(again.output.contains("token=\(token)"), "the token survives a restart: \(again)")
        let stillListed = try Self.onramp(
            ["project", "list", "--server", url], in: elsewhere, environment: environment)
        #expect(stillListed.output.contains(projectId))
    }

    @Test func withoutAServerATokenOrADatabaseTheCLISaysWhatToDo() throws {
        let elsewhere = try Folder("cli-nothing")
        let home = try Folder("cli-home")
        // A port nothing listens on.
        let closed = try ListeningSocketPort.free()
        let noServer = try Self.onramp(
            ["project", "list", "--server", "http://127.0.0.1:\(closed)", "--console-token", "a-token-of-16-bytes"],
            in: elsewhere, environment: ["ONRAMP_HOME": home.path])
        #expect(noServer.status == 1)
        #expect(noServer.errors.contains("no onramp server answers") && noServer.errors.contains("--database"))
        // No token anywhere: says where one comes from.
        let noToken = try Self.onramp(
            ["project", "list", "--server", "http://127.0.0.1:\(closed)"], in: elsewhere,
            environment: ["ONRAMP_HOME": home.path])
        #expect(noToken.status == 1 && noToken.errors.contains("no console token"), "\(noToken)")
        // Offline commands without --database need the server's folder.
        for arguments in [
            ["events", "list"], ["trigger", "onramp.transaction.success"],
            ["clock", "advance", "--project", "p", "--seconds", "1"],
        ] {
            let offline = try Self.onramp(arguments, in: elsewhere, environment: ["ONRAMP_HOME": home.path])
            #expect(
                offline.status != 0 && offline.errors.contains("no database at ./onramp.db"), "\(arguments): \(offline)"
            )
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "no database was made")
    }

    @Test func aWrongTokenIsRefusedWithWhatToPass() throws {
        let serverFolder = try Folder("cli-server")
        let home = try Folder("cli-home")
        let (server, url) = try Self.serve(in: serverFolder, home: home)
        defer { Self.stop(server) }
        let refused = try Self.onramp(
            ["project", "list", "--server", url], in: serverFolder,
            environment: ["ONRAMP_CONSOLE_TOKEN": "not-the-token-of-this-server"])
        #expect(refused.status == 1 && refused.errors.contains("refused the console token"), "\(refused)")
    }

    /// `onramp logs tail` streams the server's requests as they are answered, a refusal with its code and
    /// message; probes are not in the log, so not in the tail.
    @Test func logsTailStreamsTheRequestsWithTheirRefusals() throws {
        let serverFolder = try Folder("cli-server")
        let home = try Folder("cli-home")
        let (server, url) = try Self.serve(in: serverFolder, home: home)
        defer { Self.stop(server) }
        let tail = OnrampCLI.process(["logs", "tail", "--server", url], environment: Self.keeping(in: home))
        let output = Pipe()
        tail.standardOutput = output
        try tail.run()
        defer {
            kill(tail.processIdentifier, SIGTERM)
            tail.waitUntilExit()
        }
        let reader = LineReader(output.fileHandleForReading)
        #expect(try #require(reader.next(timeout: 10)).hasPrefix("onramp logs tail: \(url)"))
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        #expect(try RawHTTPClient(port: port).request("GET", "/v1/webhook_endpoints").status == 401)
        #expect(try RawHTTPClient(port: port).request("GET", "/healthz").status == 200)
        let refused = try #require(reader.next(timeout: 10))
        #expect(refused.contains("GET /v1/webhook_endpoints  401"), "\(refused)")
        #expect(refused.contains("api_key_invalid: You did not provide an API key"), "its code and message: \(refused)")
        let healthy = try #require(reader.next(timeout: 10))
        #expect(healthy.contains("GET /healthz  200"), "\(healthy); the probe before it is not logged")
    }

    /// `onramp demo --server` runs both purchases against a running server trusting its CA, and prints console
    /// pages that show them afterwards.
    @Test func theDemoRunsAgainstARunningServerAndLeavesItsPurchasesInTheConsole() throws {
        let folder = try Folder("cli-demo")
        let home = try Folder("cli-demo-home")
        let ca = folder.url.appendingPathComponent("ca").path
        #expect(try Self.onramp(["appattest", "ca", "create", "--out", ca], in: folder).status == 0)
        let (server, url) = try Self.serve(in: folder, home: home, ["--trust-appattest-root", ca + "/root.pem"])
        defer { Self.stop(server) }
        let demo = try Self.onramp(
            ["demo", "--server", url, "--ca", ca], in: folder, environment: ["ONRAMP_HOME": home.path])
        #expect(demo.status == 0, "\(demo.output)\(demo.errors)")
        #expect(demo.output.contains("both purchases settled and credited once"))
        let links = demo.output.split(separator: "\n").compactMap { line in
            line.split(separator: " ").last.flatMap { $0.hasPrefix(url + "/console/") ? String($0) : nil }
        }
        #expect(links.contains { $0.contains("/console/transactions/") }, "\(demo.output)")
        #expect(links.contains { $0.contains("/console/onramp_sessions/") }, "\(demo.output)")
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let token = try String(contentsOf: home.url.appendingPathComponent("console-token"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let signIn = try RawHTTPClient(port: port).request("GET", "/console/login?token=\(token)")
        let cookie = try #require(signIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        for link in links {
            let page = try RawHTTPClient(port: port).request(
                "GET", String(link.dropFirst(url.count)), headers: [("Cookie", cookie)])
            #expect(page.status == 200, "\(link)")
        }
        let transaction = try #require(links.first { $0.contains("/console/transactions/") })
        let page = try RawHTTPClient(port: port).request(
            "GET", String(transaction.dropFirst(url.count)), headers: [("Cookie", cookie)])
        #expect(page.text.contains("ONRAMP_TRANSACTION_STATUS_SUCCESS") && page.text.contains("demo-user-app2app"))
        let without = try Self.onramp(["demo", "--server", url], in: folder, environment: ["ONRAMP_HOME": home.path])
        #expect(without.status == 64 && without.errors.contains("--server needs --ca DIR"), "\(without.errors)")
        let missing = try Self.onramp(
            ["demo", "--server", url, "--ca", "no-such-ca"], in: folder, environment: ["ONRAMP_HOME": home.path])
        #expect(
            missing.status == 1 && missing.errors.contains("onramp appattest ca create --out no-such-ca"),
            "\(missing.errors)")
        #expect(!demo.errors.contains("msg=request"), "no access-log lines among the steps: \(demo.errors)")
    }

    @Test func versionIsPrinted() throws {
        let folder = try Folder("cli-version")
        for arguments in [["--version"], ["version"], ["-V"]] {
            let answer = try Self.onramp(arguments, in: folder)
            #expect(answer.status == 0)
            #expect(answer.output.contains(try Regex(#"^onramp \d+\.\d+\.\d+\n$"#)), "\(arguments): \(answer.output)")
        }
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on (bound, then closed).
enum ListeningSocketPort {
    static func free() throws -> Int {
        let descriptor = socket(AF_INET, PlatformSockets.stream, 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

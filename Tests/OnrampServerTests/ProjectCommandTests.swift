import Foundation
import OnrampTestSupport
import OnrampWire
import Testing

/// `onramp project` as a real process on a SQLite file: what an operator runs to set up a project.
@Suite(.serialized) struct ProjectCommandTests {
    /// Every way of asking for help prints a usage and exits 0: `help` after `help` (it recursed until the stack
    /// overflowed), a subcommand's `--help` in `appattest` (it was an unknown command or option), and `catalogue
    /// --help` (it printed the catalogue).
    @Test func everyWayOfAskingForHelpPrintsAUsage() throws {
        for arguments in [
            ["help", "--help"], ["help", "help"], ["-h", "-h"], ["--help"], ["help", "appattest"],
            ["appattest", "ca", "--help"], ["appattest", "attest", "--help"], ["appattest", "-h"],
            ["catalogue", "--help"], ["console", "--help"], ["version", "--help"], ["project", "--help"],
            ["serve", "--help"], ["demo", "--help"], ["events", "--help"], ["listen", "--help"], ["trigger", "--help"],
            ["clock", "--help"], ["state", "--help"], ["bench-fixtures", "--help"], ["help", "console"],
        ] {
            let answered = try OnrampCLI.run(arguments)
            #expect(answered.status == 0, "\(arguments): \(answered.errors)")
            #expect(answered.output.contains("usage") || answered.output.contains("Usage"), "\(arguments)")
            #expect(!answered.output.contains("\"assets\""), "\(arguments) printed the catalogue")
        }
    }

    /// `catalogue --country` prints what is served there, as the console's availability page does; an unknown
    /// country names the served ones.
    @Test func catalogueLooksUpACountry() throws {
        let newYork = try OnrampCLI.run(["catalogue", "--country", "US", "--subdivision", "NY"])
        #expect(newYork.status == 0, "\(newYork.errors)")
        let answer = try JSONParser().parse(Array(newYork.output.utf8))
        #expect(answer["country"] == "US" && answer["subdivision"] == "NY")
        #expect(answer["embedded"]?["available"] == false)
        #expect(answer["embedded"]?["reason"]?.stringValue?.contains("New York") == true)
        #expect(answer["options"]?["purchase_currencies"]?.arrayValue?.isEmpty == false)
        #expect(answer["payment_methods"]?.arrayValue?.contains("CARD") == true, "\(answer)")
        let unknown = try OnrampCLI.run(["catalogue", "--country", "ZZ"])
        #expect(unknown.status == 1 && unknown.errors.contains("the catalogue serves US"), "\(unknown.errors)")
    }

    /// `create --env` prints `export` lines a shell evaluates into every key (the PEM key whole), and `list` names
    /// the project, as text and as JSON; an empty database says how to make one.
    @Test func createPrintsExportLinesAndListNamesTheProjects() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = "sqlite:\(directory.path)/onramp.db"
        let empty = try OnrampCLI.run(["project", "list", "--database", database])
        #expect(empty.status == 0 && empty.output.contains("No projects yet"), "\(empty)")

        let binary = Python.onrampBinary.path
        let script = """
            eval "$('\(binary)' project create --name 'Ada'"'"'s Wallet' --env --database '\(database)')"
            printf '%s\\n%s\\n%s\\n' "$ONRAMP_PROJECT" "$STRIPE_SECRET_KEY" "$LINK_OAUTH_CLIENT_SECRET"
            printf '%s' "$CDP_API_KEY_SECRET"
            """
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", script]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(printed)")
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.count > 4 && lines[1].hasPrefix("sk_test_") && lines[2].hasPrefix("lnk_oauth_secret_"), "\(lines)")
        #expect(lines[3] == "-----BEGIN EC PRIVATE KEY-----" || lines[3] == "-----BEGIN PRIVATE KEY-----", "\(lines)")
        #expect(printed.hasSuffix("-----\n") || printed.hasSuffix("-----"), "the PEM key is whole")

        let listed = try OnrampCLI.run(["project", "list", "--database", database])
        #expect(listed.status == 0 && listed.output.contains(lines[0]) && listed.output.contains("Ada's Wallet"))
        #expect(listed.output.contains("  test  "), "\(listed.output)")
        let json = try JSONParser().parse(
            try OnrampCLI.run(["project", "list", "--json", "--database", database]).output)
        let first = json.arrayValue?.first
        #expect(first?["projectId"]?.stringValue == lines[0] && first?["livemode"] == false, "\(json)")
    }

    /// `add-end-partner` makes a project an aggregator: it prints the partner id its orders send as
    /// `X-Onramp-Partner-Id`, and refuses the same id twice and an unknown project.
    @Test func addEndPartnerRegistersAnAggregatorsPartnerOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = ["--database", "sqlite:\(directory.path)/onramp.db", "--json"]
        let created = try OnrampCLI.run(["project", "create", "--name", "Aggregator"] + database)
        #expect(created.status == 0, "\(created.errors)")
        let projectId = try #require(try JSONParser().parse(created.output)["projectId"]?.stringValue)
        let partner = ["project", "add-end-partner", "--project", projectId, "--name", "Corner Shop"]

        let generated = try OnrampCLI.run(partner + database)
        #expect(generated.status == 0, "\(generated.errors)")
        let generatedId = try JSONParser().parse(generated.output)["partnerId"]?.stringValue
        #expect(generatedId?.count == 36)
        let chosen = try OnrampCLI.run(partner + ["--partner-id", "shop-1"] + database)
        #expect(chosen.status == 0, "\(chosen.errors)")
        #expect(try JSONParser().parse(chosen.output)["partnerId"] == "shop-1")
        let twice = try OnrampCLI.run(partner + ["--partner-id", "shop-1"] + database)
        #expect(twice.status == 1 && twice.errors.contains("already an end partner"), "\(twice.errors)")
        let nowhere = try OnrampCLI.run(["project", "add-end-partner", "--project", "nope", "--name", "X"] + database)
        #expect(nowhere.status == 1 && nowhere.errors.contains("no project nope"), "\(nowhere.errors)")
    }
}

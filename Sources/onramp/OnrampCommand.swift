import Foundation
import OnrampServer

/// The top-level command and its dispatch table.
enum OnrampCommand {
    static let usage = """
        onramp — the OnrampKit server, operator and developer tool

        Usage: onramp <command> [options]

        Commands:
          serve       Run the HTTP server (App2App and Embedded Components contracts)
          demo        Run both purchases end to end against a temporary local sandbox
          project     Create and change partner projects and their keys (create and list ask the running server)
          console     Print the running server's console sign-in link
          jwt         Sign a CDP API key JWT for one request (curl -H "Authorization: Bearer $(onramp jwt GET URL)")
          appattest   Verify App Attest objects; drive the software attester
          events      List webhook events and their deliveries; redeliver one
          listen      Forward webhook deliveries to a local URL, like `stripe listen`
          logs        Stream the running server's requests with their refusals, like `stripe logs tail`
          trigger     Cause a real event of a given type in the sandbox
          clock       Move a test-mode project's clock ahead (challenges, quotes… expire as in real time)
          state       Save the sandbox's whole state to a file (onramp serve --import starts from it)
          catalogue   Print the catalogue as JSON, or what it serves in a country (--country US --subdivision NY)
          bench-fixtures  Prepare attested requests for the benchmarks (bench/app2app.sh)
          help        Show this help, or a command's help: onramp help <command>
          version     Print the version (also --version)

        Run `onramp <command> --help` for a command's options.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            print(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "serve": return ServeCommand.run(rest)
        case "project": return ProjectCommand.run(rest)
        case "console": return ConsoleCommand.run(rest)
        case "jwt": return JWTCommand.run(rest)
        case "logs": return LogsCommand.run(rest)
        case "version", "--version", "-V":
            if rest.contains(where: isHelp) {
                print("usage: onramp version (or onramp --version)\n\nPrints the version of onramp.")
                return 0
            }
            print("onramp \(OnrampKitVersion.current)")
            return 0
        case "appattest": return AppAttestCommand.run(rest)
        case "events", "listen", "trigger": return EventsCommand.run(command, rest)
        case "bench-fixtures": return BenchFixturesCommand.run(rest)
        case "demo": return DemoCommand.run(rest)
        case "state": return StateCommand.run(rest)
        case "clock": return ClockCommand.run(rest)
        case "catalogue": return CatalogueCommand.run(rest)
        case "help", "--help", "-h":
            // `onramp help <command>` is the command's own help; a help word after another is this one.
            if let topic = rest.first, !isHelp(topic) { return run([topic, "--help"]) }
            print(usage)
            return 0
        default:
            printError("unknown command \(command)\n\n\(usage)")
            return 64
        }
    }
}

/// Whether `argument` asks for help (`help`, `--help`, `-h`).
func isHelp(_ argument: String) -> Bool {
    argument == "help" || argument == "--help" || argument == "-h"
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

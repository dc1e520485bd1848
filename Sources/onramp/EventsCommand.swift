import Foundation
import HTTPServer
import OnrampServer
import OnrampServices
import OnrampStore
import OnrampWire

/// `onramp events …`, and the entry point of the webhook developer commands `listen` and `trigger`.
enum EventsCommand {
    static let usage = """
        Usage: onramp events <subcommand> [options]

        Subcommands:
          list [--type TYPE] [--project ID] [--limit N]   Newest events first, with their deliveries
          redeliver EVENT_ID                              Deliver the event again (same id) to every matching endpoint

        Common options:
          --database URL   sqlite:PATH or postgres://… (default sqlite:./onramp.db)
          --json           Print JSON
        """

    /// Runs `events`, `listen` or `trigger`.
    static func run(_ command: String, _ arguments: [String]) -> Int32 {
        switch command {
        case "listen": return ListenCommand.run(arguments)
        case "trigger": return TriggerCommand.run(arguments)
        default: return run(arguments)
        }
    }

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--database", "--type", "--project", "--limit"],
                flagOptions: ["--json", "--help"])
            guard let subcommand = args.positional.first, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let database = try CommandDatabase.open(args)
            defer { database.close() }
            try database.migrate(Schema.migrations)
            let operations = WebhookOperations(database: database)
            switch subcommand {
            case "list":
                let events = try operations.listEvents(
                    type: args.value("--type"), projectId: args.value("--project"),
                    limit: try args.integer("--limit", default: 20, in: 1...100_000))
                if args.flag("--json") {
                    print(JSONValue.array(events).serializedString)
                } else {
                    for event in events { print(summary(event)) }
                }
            case "redeliver":
                guard args.positional.count == 2 else {
                    throw Arguments.UsageError(description: "redeliver needs EVENT_ID")
                }
                let id = args.positional[1]
                guard try operations.redeliver(eventId: id) else {
                    printError("onramp events: no event \(id)")
                    return 1
                }
                print(args.flag("--json") ? #"{"redelivered":"\#(id)"}"# : "redelivery of \(id) scheduled")
            default:
                throw Arguments.UsageError(description: "unknown subcommand \(subcommand)")
            }
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp events: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp events: \(error)")
            return 1
        }
    }

    /// `id  type  family  delivered/total`.
    private static func summary(_ event: JSONValue) -> String {
        let deliveries = event["deliveries"]?.arrayValue ?? []
        let succeeded = deliveries.filter { $0["status"]?.stringValue == "succeeded" }.count
        return [
            event["id"]?.stringValue ?? "", event["type"]?.stringValue ?? "", event["family"]?.stringValue ?? "",
            "\(succeeded)/\(deliveries.count) delivered",
        ].joined(separator: "  ")
    }
}

import Foundation
import OnrampServer
import OnrampServices
import OnrampStore

/// `onramp trigger EVENT`: causes a real event of that type on the database (see ``WebhookTrigger``);
/// a running server on the same database delivers it.
enum TriggerCommand {
    static let usage = """
        Usage: onramp trigger EVENT [--project ID] [--count N] [--rate PER_SECOND] [--database URL]

        Events: \(WebhookTrigger.supportedTypes.joined(separator: ", "))

        onramp.transaction.* creates a live App2App transaction (25 USD of USDC on Base) and moves it with
        the settlement simulator as far as the event asks; offramp.transaction.* starts a sell of 25 USDC and
        takes its step (failed: the send fails); crypto.onramp_session.updated writes a session event in
        fulfillment_complete; payment_intent.succeeded deposits 25 USDC at a new test-mode deposit address.
        --project may be left out when the database has one project. Prints each event written: its id, its
        type and its console page (on the server the database belongs to).
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--project", "--count", "--rate", "--database"], flagOptions: ["--help"])
            guard args.positional.count == 1, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let database = try CommandDatabase.open(args)
            defer { database.close() }
            try database.migrate(Schema.migrations)
            let projectId = try args.value("--project") ?? onlyProject(database)
            let count = try args.integer("--count", default: 1, in: 1...1_000_000)
            let rate = try args.integer("--rate", default: 0, in: 0...100_000)
            let trigger = WebhookTrigger(database: database)
            let start = Date()
            for index in 0..<count {
                if rate > 0 {
                    let due = start.addingTimeInterval(Double(index) / Double(rate))
                    if due > Date() { Thread.sleep(until: due) }
                }
                for event in try trigger.trigger(args.positional[0], projectId: projectId) {
                    print("\(event.id)  \(event.type)  console: /console/events/\(event.id)")
                }
            }
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp trigger: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp trigger: \(error)")
            return 1
        }
    }

    private static func onlyProject(_ database: any Database) throws -> String {
        let ids = try database.read { try $0.query("SELECT id FROM projects LIMIT 2").map { try $0.string("id") } }
        guard ids.count == 1 else {
            throw Arguments.UsageError(description: "the database has \(ids.count) projects; pass --project")
        }
        return ids[0]
    }
}

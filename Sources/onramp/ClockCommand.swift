import Foundation
import OnrampServer
import OnrampServices
import OnrampStore

/// `onramp clock advance`: moves a test-mode project's clock ahead, as the test-clock APIs do.
enum ClockCommand {
    static let usage = """
        Usage: onramp clock advance --project ID --seconds N [--database URL]

        Moves the test-mode project's clock N seconds ahead (1 to 2,592,000): its purchase challenges,
        quotes and the other expiries its requests decide behave as if that much time had passed. A
        project with a live-mode key keeps real time.

        Options:
          --database URL   sqlite:PATH or postgres://… (default sqlite:./onramp.db)
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--database", "--project", "--seconds"], flagOptions: ["--help"])
            guard args.positional == ["advance"], let project = args.value("--project"), !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let seconds = try args.integer("--seconds", default: 0, in: 1...2_592_000)
            let database = try CommandDatabase.open(args)
            defer { database.close() }
            try database.migrate(Schema.migrations)
            let offset = try TestClockControl(database: database).advance(projectId: project, seconds: Int64(seconds))
            print("project \(project) runs \(offset / 1000) s ahead of real time")
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp clock: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp clock: \(error)")
            return 1
        }
    }
}

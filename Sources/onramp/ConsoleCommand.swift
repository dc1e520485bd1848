import OnrampServer

/// `onramp console`: the sign-in link of a running server's console, after checking that the server answers
/// and takes the token (so a link that would not work is never printed).
enum ConsoleCommand {
    static let usage = """
        Usage: onramp console [--server URL] [--console-token TOKEN]

        Prints the sign-in link of the running server's console.

        Options:
        \(ServerConnection.optionsUsage)
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--server", "--console-token"], flagOptions: ["--help"])
            guard args.positional.isEmpty, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let server = try ServerConnection.from(args)
            _ = try server.get("/console/api/projects")
            print("\(server.base)/console/login?token=\(server.token)")
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp console: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp console: \(error)")
            return 1
        }
    }
}

import Foundation
import OnrampWire

/// `onramp logs tail`: the running server's requests as they are answered, like `stripe logs tail`: one line
/// each with its refusal's code and message, from the console's request log (polled twice a second).
enum LogsCommand {
    static let usage = """
        Usage: onramp logs tail [--server URL] [--console-token TOKEN] [--errors]

        Prints the running server's requests as they are answered (Ctrl-C stops), oldest first: time, method,
        route, status, latency, refusal code and message, project, request id. --errors prints only 4xx and 5xx.

        Options:
        \(ServerConnection.optionsUsage)
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--server", "--console-token"], flagOptions: ["--help", "--errors"])
            guard args.positional == ["tail"], !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let server = try ServerConnection.from(args)
            // Ctrl-C or a TERM stops it, even when started by a process that ignores or blocks them (a child
            // inherits both).
            var stopping = sigset_t()
            sigemptyset(&stopping)
            sigaddset(&stopping, SIGINT)
            sigaddset(&stopping, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            // Start after what the log already holds: a tail shows what happens from now on.
            var last = try server.get("/console/api/requests")["data"]?.arrayValue?.last?["requestId"]?.stringValue
            print("onramp logs tail: \(server.base) (Ctrl-C stops)")
            fflush(nil)
            while true {
                let path = "/console/api/requests" + (last.map { "?after=\(PercentEncoding.encode($0))" } ?? "")
                for entry in try server.get(path)["data"]?.arrayValue ?? [] {
                    last = entry["requestId"]?.stringValue ?? last
                    let status = Self.status(entry)
                    if args.flag("--errors") && status < 400 { continue }
                    print(line(entry))
                }
                fflush(nil)
                Thread.sleep(forTimeInterval: 0.5)
            }
        } catch let error as Arguments.UsageError {
            printError("onramp logs: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp logs: \(error)")
            return 1
        }
    }

    /// The entry's HTTP status.
    static func status(_ entry: JSONValue) -> Int {
        if case .number(let status) = entry["status"] { return Int(status) ?? 0 }
        return 0
    }

    /// `time  METHOD route  status  latency  [code: message]  project  request id`.
    static func line(_ entry: JSONValue) -> String {
        let field = { (name: String) in entry[name]?.stringValue ?? "" }
        let refusal = entry["errorCode"] == nil ? "" : "  \(field("errorCode")): \(field("errorMessage"))"
        let project = entry["projectId"] == nil ? "" : "  project \(field("projectId"))"
        return "\(field("time"))  \(field("method")) \(field("route"))  \(status(entry))"
            + "  \(field("latencyMs")) ms\(refusal)\(project)  \(field("requestId"))"
    }
}

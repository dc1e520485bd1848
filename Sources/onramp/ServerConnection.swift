import Foundation
import OnrampWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The CLI's way to a running server's admin routes (`/console/api/…`): the server's base URL (`--server`,
/// default the local one `make serve` starts) and the console token (`--console-token`,
/// `ONRAMP_CONSOLE_TOKEN`, or the one kept in ``OnrampHome``, which a server started without either uses).
struct ServerConnection {
    /// Where `make serve` listens.
    static let localServer = "http://127.0.0.1:8080"

    /// The usage lines of the options ``from(_:)`` reads, for each command that talks to a server.
    static let optionsUsage = """
          --server URL          The server (default \(localServer))
          --console-token TOKEN Its console token (or ONRAMP_CONSOLE_TOKEN; default: the one a server started
                                without either keeps in ~/.onramp/console-token, or $ONRAMP_HOME)
        """

    let base: String
    let token: String

    /// What went wrong talking to the server, in words that say what to do.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The connection the options name.
    static func from(_ args: Arguments) throws -> ServerConnection {
        var base = args.value("--server") ?? localServer
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), URL(string: base) != nil else {
            throw Arguments.UsageError(description: "--server must be an http:// or https:// URL, not \(base)")
        }
        let given = args.value("--console-token") ?? ProcessInfo.processInfo.environment["ONRAMP_CONSOLE_TOKEN"]
        guard let token = try given.flatMap({ $0.isEmpty ? nil : $0 }) ?? OnrampHome.existingConsoleToken() else {
            throw Failure(
                description:
                    "no console token: pass --console-token (or ONRAMP_CONSOLE_TOKEN) as the server was started with; a server started without one keeps its token in \(OnrampHome.consoleTokenFile.path)"
            )
        }
        return ServerConnection(base: base, token: token)
    }

    /// `GET path`, answered with JSON.
    func get(_ path: String) throws -> JSONValue {
        try send("GET", path, body: nil)
    }

    /// `POST path` with a JSON body, answered with JSON.
    func post(_ path: String, _ body: JSONValue) throws -> JSONValue {
        try send("POST", path, body: body)
    }

    private func send(_ method: String, _ path: String, body: JSONValue?) throws -> JSONValue {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.serialized)
        }
        let outcome = HTTPExchange.send(request)
        guard let status = outcome.status else {
            throw Failure(
                description:
                    "no onramp server answers at \(base) (\(outcome.error ?? "no answer")): start one with `make serve`, pass --server URL, or --database URL to work on a database file instead"
            )
        }
        let answer = try? JSONParser().parse(Array(outcome.body))
        guard (200..<300).contains(status), let answer else {
            let message = answer?["error"]?["message"]?.stringValue ?? String(decoding: outcome.body, as: UTF8.self)
            if status == 401 {
                throw Failure(
                    description:
                        "\(base) refused the console token: pass the one it was started with (--console-token or ONRAMP_CONSOLE_TOKEN)"
                )
            }
            throw Failure(description: "\(base) answered \(status): \(message)")
        }
        return answer
    }
}

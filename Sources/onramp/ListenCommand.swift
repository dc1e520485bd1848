import Dispatch
import Foundation
import HTTPServer
import OnrampRuntime
import OnrampServer
import OnrampServices
import OnrampStore
import OnrampWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `onramp listen --forward-to URL`: like the Stripe CLI's `listen`. Opens a relay on a local port,
/// subscribes it to the server's events, forwards every delivery (body and signature headers
/// untouched, so the receiver verifies it with the printed secret), prints one line per delivery,
/// and removes the subscription on Ctrl-C.
enum ListenCommand {
    static let usage = """
        Usage: onramp listen --forward-to URL [--events TYPE,TYPE…] (--server URL --api-key sk_… | [--database URL] [--project ID])

        With --server and --api-key the relay is registered through the server's /v1/webhook_endpoints
        (Stripe-family events). Without them it is registered directly in the database, for both the
        CDP and the Stripe families, with one signing secret.
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments,
                valueOptions: ["--forward-to", "--events", "--server", "--api-key", "--database", "--project"],
                flagOptions: ["--help"])
            guard let forward = args.value("--forward-to"), URL(string: forward) != nil, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let events = (args.value("--events") ?? "*").split(separator: ",").map(String.init)
            let relay = try startRelay(forwardingTo: forward)
            let relayURL = "http://127.0.0.1:\(relay.port)/"
            let cleanup: () throws -> Void
            let secret: String
            if let server = args.value("--server") {
                guard let apiKey = args.value("--api-key") else {
                    throw Arguments.UsageError(description: "--server needs --api-key")
                }
                (secret, cleanup) = try registerThroughAPI(
                    server: server, apiKey: apiKey, relayURL: relayURL, events: events)
            } else {
                (secret, cleanup) = try registerInDatabase(
                    try CommandDatabase.url(args), project: args.value("--project"),
                    relayURL: relayURL, events: events)
            }
            print("Ready! Forwarding to \(forward). Your webhook signing secret is \(secret) (^C to quit)")
            fflush(nil)
            TerminationSignal.wait()
            try cleanup()
            relay.shutdown(gracePeriod: 1)
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp listen: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp listen: \(error)")
            return 1
        }
    }

    private static func startRelay(forwardingTo forward: String) throws -> HTTPServer {
        AccessLog.shared.configure(enabled: false)
        var router = Router()
        router.add("POST", "/") { request in relay(request, to: forward) }
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 4), router: router)
        try server.start()
        return server
    }

    /// Forwards one delivery and answers with the receiver's status (502 when it cannot be reached),
    /// so the server's retries apply to the local receiver.
    private static func relay(_ request: HTTPRequest, to forward: String) -> HTTPResponse {
        let body = (try? JSONParser().parse(request.body)) ?? .null
        let type = request.headers["X-Event-Type"] ?? body["type"]?.stringValue ?? "?"
        let id = request.headers["X-Event-Id"] ?? body["id"]?.stringValue ?? "?"
        var outgoing = URLRequest(url: URL(string: forward)!, timeoutInterval: 10)
        outgoing.httpMethod = "POST"
        outgoing.httpBody = Data(request.body)
        for field in request.headers {
            let name = field.name.lowercased()
            if name == "content-type" || name.hasPrefix("x-") || name == "stripe-signature" {
                outgoing.setValue(field.value, forHTTPHeaderField: field.name)
            }
        }
        let started = Date()
        let (status, error) = send(outgoing)
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        let time = ISO8601DateFormatter.string(
            from: Date(), timeZone: .current, formatOptions: [.withTime, .withColonSeparatorInTime])
        let outcome = status.map { "[\($0)]" } ?? "[ERR] \(error ?? "")"
        print("\(time)  \(type) [\(id)]  --> \(outcome) POST \(forward) (\(milliseconds) ms)")
        fflush(nil)
        return .text("forwarded", status: status ?? 502)
    }

    private static func send(_ request: URLRequest) -> (Int?, String?) {
        let outcome = HTTPExchange.send(request)
        return (outcome.status, outcome.error)
    }

    private static func registerThroughAPI(server: String, apiKey: String, relayURL: String, events: [String]) throws
        -> (String, () throws -> Void)
    {
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        var form = "url=\(percentEncoded(relayURL))&description=onramp%20listen"
        for event in events { form += "&enabled_events[]=\(percentEncoded(event))" }
        var create = URLRequest(url: URL(string: base + "/v1/webhook_endpoints")!)
        create.httpMethod = "POST"
        create.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        create.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        create.httpBody = Data(form.utf8)
        let result = HTTPExchange.send(create)
        let endpoint = try JSONParser().parse(Array(result.body))
        guard result.status == 200, let id = endpoint["id"]?.stringValue, let secret = endpoint["secret"]?.stringValue
        else {
            throw Arguments.UsageError(
                description:
                    "the server refused the endpoint (\(result.status ?? 0)): \(String(decoding: result.body, as: UTF8.self))"
            )
        }
        return (
            secret,
            {
                var delete = URLRequest(url: URL(string: base + "/v1/webhook_endpoints/" + id)!)
                delete.httpMethod = "DELETE"
                delete.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
                _ = send(delete)
            }
        )
    }

    private static func registerInDatabase(_ url: String, project: String?, relayURL: String, events: [String]) throws
        -> (String, () throws -> Void)
    {
        let database = try DatabaseURL.open(url)
        try database.migrate(Schema.migrations)
        let projectId: String
        if let project {
            projectId = project
        } else {
            let ids = try database.read { try $0.query("SELECT id FROM projects LIMIT 2").map { try $0.string("id") } }
            guard ids.count == 1 else {
                throw Arguments.UsageError(description: "the database has \(ids.count) projects; pass --project")
            }
            projectId = ids[0]
        }
        let operations = WebhookOperations(database: database)
        let stripe = try operations.createSubscription(
            projectId: projectId, family: .stripe, url: relayURL, eventTypes: events, description: "onramp listen")
        let cdp: WebhookSubscription
        do {
            cdp = try operations.createSubscription(
                projectId: projectId, family: .cdp, url: relayURL, eventTypes: events, description: "onramp listen",
                secret: stripe.secret)
        } catch {
            _ = try? operations.deleteSubscription(stripe)  // no half-registered relay left behind
            throw error
        }
        return (
            stripe.secret,
            {
                _ = try operations.deleteSubscription(stripe)
                _ = try operations.deleteSubscription(cdp)
                database.close()
            }
        )
    }

    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

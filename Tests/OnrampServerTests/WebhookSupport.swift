import Foundation
import HTTPServer
import OnrampCore
import OnrampPlatform
import OnrampRuntime
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The database drivers the server tests run on.
enum DatabaseDriver: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Both drivers, unless `ONRAMP_SKIP_POSTGRES=1` leaves PostgreSQL out explicitly.
    static let all: [DatabaseDriver] =
        ProcessInfo.processInfo.environment["ONRAMP_SKIP_POSTGRES"] == "1" ? [.sqlite] : [.sqlite, .postgres]
}

/// Why a PostgreSQL case cannot run; thrown so that it fails instead of passing silently.
struct WebhookMissingPostgres: Error, CustomStringConvertible {
    var description: String {
        "ONRAMP_TEST_POSTGRES_URL is not set: run `scripts/with-postgres.sh swift test` or set ONRAMP_SKIP_POSTGRES=1"
    }
}

/// A fresh database URL for one test: a temp SQLite file or a new PostgreSQL database (already migrated
/// unless `migrated` is false; a SQLite file is always empty).
struct ScratchDatabase {
    let url: String
    private let remove: () -> Void

    init(_ driver: DatabaseDriver, migrated: Bool = true) throws {
        switch driver {
        case .sqlite:
            let name = "wh" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).db").path
            url = "sqlite:\(path)"
            remove = {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        case .postgres:
            let schema = try TestSchema(.postgres, migrated: migrated)!
            url = schema.url
            remove = { schema.drop() }
        }
    }

    /// Deletes the file or drops the schema.
    func drop() { remove() }
}

/// Runs `body` with a scratch database URL, removed afterwards.
func withWebhookDatabaseURL(_ driver: DatabaseDriver, _ body: (String) throws -> Void) throws {
    let scratch = try ScratchDatabase(driver)
    defer { scratch.drop() }
    try body(scratch.url)
}

/// `withWebhookDatabaseURL` for a test that waits suspended.
func withWebhookDatabaseURL(_ driver: DatabaseDriver, _ body: (String) async throws -> Void) async throws {
    let scratch = try ScratchDatabase(driver)
    defer { scratch.drop() }
    try await body(scratch.url)
}

/// A migrated database with one project, and a context on it.
struct WebhookFixture {
    let database: any Database
    let context: ServerContext
    let credentials: ProjectProvisioner.Credentials

    init(
        url: String, clock: any OnrampCore.Clock = SystemClock(), webhookTargets: WebhookTargetPolicy = .init()
    ) throws {
        database = try DatabaseURL.open(url)
        try database.migrate(Schema.migrations)
        context = ServerContext(
            database: database, clock: clock, publicBaseURL: "http://127.0.0.1:1", appAttestRoots: [],
            webhookTargets: webhookTargets)
        credentials = try ProjectProvisioner(database: database, clock: clock).createProject(
            name: "Webhook Tests", appIds: [], redirectHosts: [], keyType: .es256)
    }

    var projectId: String { credentials.projectId }

    /// Stores a subscription of `family` for every event type, delivering to `url`.
    @discardableResult
    func subscribe(
        _ family: WebhookFamily, url: String, eventTypes: [String] = ["*"], projectId: String? = nil
    ) throws -> WebhookSubscription {
        try WebhookSubscriptionService(database: database, ids: context.ids, clock: context.clock).create(
            WebhookSubscriptionChange(url: url, eventTypes: eventTypes, description: "test"),
            projectId: projectId ?? self.projectId, family: family, livemode: false)
    }

    /// Commits one Stripe-family event (the full event object as payload) and returns its id.
    @discardableResult
    func emitStripeEvent(type: String = "crypto.onramp_session.updated") throws -> String {
        let id = context.ids.id(prefix: "evt")
        let now = context.nowMilliseconds
        let payload: JSONValue = [
            "id": .string(id), "object": "event", "type": .string(type),
            "created": .integer(Timestamp.unixSeconds(milliseconds: now)), "livemode": false,
            "data": [
                "object": ["id": "cos_test", "object": "crypto.onramp_session", "status": "fulfillment_complete"]
            ],
        ]
        try database.transaction {
            try Outbox.append(
                $0, id: id, projectId: projectId, family: .stripe, type: type, payload: payload, livemode: false,
                createdAtMilliseconds: now)
        }
        return id
    }

    /// Commits one CDP-family event and returns its id.
    @discardableResult
    func emitCDPEvent(type: String = "onramp.transaction.success", projectId: String? = nil) throws -> String {
        let id = context.ids.uuid()
        let payload: JSONValue = [
            "eventType": .string(type), "transactionId": .string(context.ids.uuid()),
            "status": "ONRAMP_TRANSACTION_STATUS_SUCCESS",
            "partnerUserRef": "user-1", "isAppToApp": true,
        ]
        try database.transaction {
            try Outbox.append(
                $0, id: id, projectId: projectId ?? self.projectId, family: .cdp, type: type, payload: payload,
                livemode: true,
                createdAtMilliseconds: context.nowMilliseconds)
        }
        return id
    }

    /// The delivery rows of `eventId`.
    func deliveries(of eventId: String) throws -> [WebhookDelivery] {
        try database.read { try WebhookDeliveryRepository(connection: $0).list(eventId: eventId) }
    }
}

/// An HTTP receiver on a real port that records every delivery and answers with the status the
/// `respond` closure picks (by the number of requests seen so far, starting at 0).
final class WebhookReceiver: Sendable {
    /// One received request.
    struct Delivery: Sendable {
        let path: String
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var eventId: String? {
            headers["x-event-id"] ?? (try? JSONParser().parse(body))?["id"]?.stringValue
        }
    }

    private final class Recorder: Sendable {
        let list = Mutex<[Delivery]>([])
    }

    private let server: HTTPServer
    private let received = Recorder()

    init(respond: @escaping @Sendable (Int) -> Int = { _ in 200 }) throws {
        AccessLog.shared.configure(enabled: false)
        var router = Router()
        let received = self.received
        let handler: HTTPHandler = { request in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.lowercased()] = field.value }
            let index = received.list.withLock { list -> Int in
                list.append(Delivery(path: request.path, headers: headers, body: request.body))
                return list.count - 1
            }
            return .text("received \(index)", status: respond(index))
        }
        router.add("POST", "/hook", handler)
        server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 4), router: router)
        try server.start()
    }

    deinit { server.shutdown(gracePeriod: 0) }

    var url: String { "http://127.0.0.1:\(server.port)/hook" }

    var deliveries: [Delivery] { received.list.withLock { $0 } }

    /// Waits until `condition` holds for the deliveries, or `timeout` seconds pass.
    @discardableResult
    func wait(timeout: TimeInterval = 20, until condition: ([Delivery]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(deliveries) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(deliveries)
    }

    /// Waits, suspended, until `condition` holds for the deliveries, or `timeout` seconds pass.
    @discardableResult
    func wait(timeout: TimeInterval = 20, until condition: ([Delivery]) -> Bool) async -> Bool {
        await Eventually.holds(timeout: timeout) { condition(deliveries) }
    }
}

/// Runs the Python verifier (`Tests/python/verify_webhooks.py`) over captured deliveries.
enum PythonVerifier {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// One result per delivery: the event id the verifier accepted, or its error.
    static func verify(_ items: [(scheme: String, secret: String, delivery: WebhookReceiver.Delivery)]) throws
        -> [(ok: Bool, id: String?, error: String?)]
    {
        let input: JSONValue = .array(
            items.map { .object([("scheme", .string($0.scheme))] + $0.delivery.scriptFields(secret: $0.secret)) })
        return try run("verify_webhooks.py", input: input).split(separator: "\n").map { line in
            let value = try JSONParser().parse(String(line))
            return (value["ok"]?.boolValue ?? false, value["id"]?.stringValue, value["error"]?.stringValue)
        }
    }

    /// Runs `Tests/python/<script>` on a file holding `input` and returns what it prints.
    static func run(_ script: String, input: JSONValue) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString).json")
        try Data(input.serialized).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = packageRoot.appendingPathComponent(".venv/bin/python")
        process.arguments = [packageRoot.appendingPathComponent("Tests/python/\(script)").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

extension WebhookReceiver.Delivery {
    /// The delivery as the Python checks read it: `secret`, `body` (raw text) and `headers` (lower-case names).
    func scriptFields(secret: String) -> [(String, JSONValue)] {
        [
            ("secret", .string(secret)), ("body", .string(text)),
            ("headers", .object(headers.map { ($0.key, .string($0.value)) })),
        ]
    }
}

/// Coinbase's demo backend's own webhook check (`verifyWebhookSignature.ts`, ported in
/// `Tests/python/demo_backend.py`) over deliveries signed with one secret.
enum DemoBackendVerifier {
    /// The script's exit status and standard error, and per delivery what the demo reads of it:
    /// `{ok, eventType, txId, amount, network, partnerUserRef}`.
    static func verify(_ deliveries: [WebhookReceiver.Delivery], secret: String, in directory: URL) async throws
        -> (output: Python.Output, results: [JSONValue])
    {
        let input: JSONValue = .array(deliveries.map { .object($0.scriptFields(secret: secret)) })
        let file = directory.appendingPathComponent("deliveries-\(UUID().uuidString).json")
        try Data(input.serialized).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await Python.run("demo_backend.py", ["verify", file.path])
        let results = try output.standardOutput.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        return (output, results)
    }
}

/// Webhook payloads parsed by cdp-sdk 1.51.0's own models (`Tests/python/cdp_payload_models.py`).
enum CDPPayloadModels {
    /// Per payload, the model's parse of it (its `to_dict()`), or the model's complaint.
    static func parse(_ items: [(model: String, payload: JSONValue)]) throws -> [(parsed: JSONValue?, error: String?)] {
        let input: JSONValue = .array(items.map { ["model": .string($0.model), "payload": $0.payload] })
        let results = try JSONParser().parse(PythonVerifier.run("cdp_payload_models.py", input: input)).arrayValue ?? []
        return results.map { result in
            (result["ok"]?.boolValue == true ? result["parsed"] : nil, result["error"]?.stringValue)
        }
    }
}

/// A server on a real port that answers every POST with `307` to another URL.
final class WebhookRedirector: Sendable {
    private let server: HTTPServer

    init(to location: String) throws {
        var router = Router()
        router.add("POST", "/hook") { _ in HTTPResponse(status: 307, headers: HTTPHeaders([("Location", location)])) }
        server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), router: router)
        try server.start()
    }

    deinit { server.shutdown(gracePeriod: 0) }

    var url: String { "http://127.0.0.1:\(server.port)/hook" }
}

/// A TCP listener on 127.0.0.1 that never accepts: a connection made to it completes its handshake in the
/// kernel's backlog, where ``pendingConnections()`` finds it, so a test can tell that none was made.
final class LoopbackListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, PlatformSockets.stream, 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        guard PlatformSockets.bind(descriptor, to: address) == 0, listen(descriptor, 16) == 0 else {
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(descriptor)
    }

    /// How many connections are waiting to be accepted (each is accepted and closed).
    func pendingConnections() -> Int {
        var count = 0
        while case let client = accept(descriptor, nil, nil), client >= 0 {
            close(client)
            count += 1
        }
        return count
    }
}

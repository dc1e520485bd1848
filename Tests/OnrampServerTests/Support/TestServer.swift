import AppAttest
import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire

@testable import OnrampServices

/// A real server on a real loopback port over a fresh SQLite file (or the test PostgreSQL), with a
/// test App Attest CA trusted next to Apple's root and one partner project. ``request(_:_:json:headers:)``
/// goes through the router in process unless the test asks for `.live`.
final class TestServer: @unchecked Sendable {
    // Immutable after init; `@unchecked` because ManualClock and the harness are only driven by the test.
    let sandbox: OnrampSandbox
    let credentials: ProjectProvisioner.Credentials
    let clock: any OnrampCore.Clock
    /// How ``request(_:_:json:headers:)`` reaches the server.
    let transport: TestTransport
    /// The PostgreSQL schema of this server, dropped at the end (nil on SQLite).
    private let schema: TestSchema?

    static let appId = "ABCDE12345.com.example.wallet"
    static let redirectHost = "wallet.example.com"

    init(
        clock: any OnrampCore.Clock = SystemClock(), settlementDelay: TimeInterval = 0, startWorkers: Bool = true,
        trustTestRoot: Bool = true, keyType: ProjectProvisioner.KeyType = .es256,
        clientRequestsPerSecond: Double? = nil, projectRequestsPerSecond: Double? = nil,
        driver: DatabaseDriver = .sqlite, settlement: any SettlementProvider = SimulatedSettlement(),
        jwtSingleUse: Bool = false,
        restoring snapshot: (state: JSONValue, credentials: ProjectProvisioner.Credentials)? = nil,
        transport: TestTransport = .inProcess
    ) throws {
        schema = try TestSchema(driver)
        self.clock = clock
        self.transport = transport
        // Workers poll every 0.1 s: polling every 20 ms, an idle server cost 3 % of a core, and 20-odd run at once.
        sandbox = try OnrampSandbox(
            databaseURL: schema?.url, clock: clock, settlementDelay: settlementDelay, settlement: settlement,
            trustTestRoot: trustTestRoot, clientRequestsPerSecond: clientRequestsPerSecond,
            projectRequestsPerSecond: projectRequestsPerSecond, jwtSingleUse: jwtSingleUse,
            workerInterval: startWorkers ? 0.1 : nil, threadCount: 2)
        if let snapshot {
            // A saved sandbox instead of a new project: the snapshot's project and its credentials.
            try StateSnapshot.restore(snapshot.state, into: sandbox.database)
            credentials = snapshot.credentials
        } else {
            credentials = try ProjectProvisioner(database: sandbox.database, clock: clock).createProject(
                name: "Example Wallet", appIds: [Self.appId], redirectHosts: [Self.redirectHost], keyType: keyType)
        }
    }

    deinit {
        sandbox.shutdown()
        schema?.drop()
    }

    /// Shuts the server down and counts the searches of each index of its PostgreSQL database
    /// (``TestSchema/indexScans()``).
    func shutDownAndCountIndexScans() throws -> [String: Int64] {
        guard let schema else { throw WebhookMissingPostgres() }
        sandbox.shutdown()
        return try schema.indexScans()
    }

    /// Shuts the server down and reads its PostgreSQL database's statistics (``TestSchema/statistics(_:)``).
    func shutDownAndReadStatistics(_ query: String) throws -> [Row] {
        guard let schema else { throw WebhookMissingPostgres() }
        sandbox.shutdown()
        return try schema.statistics(query)
    }

    var directory: URL { sandbox.directory }
    var database: any Database { sandbox.database }
    var application: OnrampApplication { sandbox.application }
    var server: HTTPServer { sandbox.server }
    var authority: TestCertificateAuthority { sandbox.authority }
    var port: Int { server.port }
    var projectId: String { credentials.projectId }

    /// Sends a request with a JSON body and parses a JSON answer.
    func request(
        _ method: String, _ path: String, json: JSONValue? = nil, headers: [(String, String)] = []
    ) throws -> (status: Int, body: JSONValue, headers: [String: String]) {
        var allHeaders = headers
        var body: [UInt8] = []
        if let json {
            allHeaders.append(("Content-Type", "application/json"))
            body = json.serialized
        }
        let response = try sandbox.exchange(transport, method, path, headers: allHeaders, body: body)
        let parsed = (try? JSONParser().parse(response.body)) ?? .string(response.text)
        return (response.status, parsed, response.headers)
    }

    /// A CDP API key JWT for `method path` on this server.
    func jwt(_ method: String, _ path: String, at time: Date? = nil) throws -> String {
        let key = try CDPAPIKey(id: credentials.cdpApiKeyId, secret: credentials.cdpApiKeySecret)
        return try key.jwt(method: method, host: "127.0.0.1", path: path, at: time ?? clock.now())
    }

    /// Moves the project's test clock as the server's own routes do (a clock moved from another process is
    /// seen within a second: ``CallerCache``).
    func advanceClock(seconds: Int64) throws -> Int64 {
        try application.context.testClocks.advance(projectId: projectId, seconds: seconds)
    }

    /// Rows of a table, for checking what was (not) written.
    func count(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int64 {
        try database.read { try $0.query(sql, parameters).first?.int("n") ?? 0 }
    }
}

/// A device: an App Attest key made by the software attester, driving the seed's mobile calls.
struct TestDevice {
    /// The server the device talks to (a test may move it to a server restored from a snapshot).
    var server: TestServer
    let attester: SoftwareAttester
    var key: SoftwareAttestKey

    init(server: TestServer, environment: AppAttestEnvironment = .production, appId: String = TestServer.appId) throws {
        self.server = server
        attester = SoftwareAttester(authority: server.authority, appId: appId, environment: environment)
        key = try attester.generateKey()
    }

    static func clientDataHash(_ challenge: String) -> [UInt8] {
        SHA256.hash(Base64URL.decode(challenge) ?? Base64.decode(challenge) ?? [])
    }

    /// Registration: challenge, attestation, registration call. Returns the registration response.
    mutating func register() throws -> (status: Int, body: JSONValue) {
        let challenge = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
        guard challenge.status == 201, let text = challenge.body["challenge"]?.stringValue else {
            return (challenge.status, challenge.body)
        }
        let attestation = try attester.attestKey(key, clientDataHash: Self.clientDataHash(text), at: server.clock.now())
        let response = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/registrations",
            json: [
                "challenge": .string(text),
                "ios": [
                    "keyId": .string(key.keyId), "attestation": .string(Base64.encode(attestation)),
                    "bundleId": "com.example.wallet",
                ],
            ])
        return (response.status, response.body)
    }

    /// Why ``registerKey()`` failed: the registration's answer.
    struct RegistrationFailed: Error, CustomStringConvertible {
        let status: Int
        let body: JSONValue
        var description: String { "registration answered \(status): \(body)" }
    }

    /// Registers the key for a test that needs it registered: a refused registration fails the test
    /// here, not one step later.
    mutating func registerKey() throws {
        let response = try register()
        guard response.status == 200 else { throw RegistrationFailed(status: response.status, body: response.body) }
    }

    /// The purchase fields with overrides.
    func purchase(_ overrides: [(String, JSONValue)] = [], removing: Set<String> = []) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("projectId", .string(server.projectId)), ("purchaseCurrency", "USDC"), ("destinationNetwork", "base"),
            ("destinationAddress", "0x52908400098527886E0F7030069857D2E4169EE7"),
            ("redirectUrl", .string("https://\(TestServer.redirectHost)/onramp-return")), ("paymentAmount", "25.00"),
            ("paymentCurrency", "USD"), ("paymentMethod", "CARD"), ("partnerUserRef", "user-1"), ("country", "US"),
            ("subdivision", "CA"),
        ]
        fields.removeAll { removing.contains($0.0) || overrides.map(\.0).contains($0.0) }
        return .object(fields + overrides)
    }

    /// A purchase challenge; returns the response.
    func purchaseChallenge(_ body: JSONValue) throws -> (status: Int, body: JSONValue) {
        let response = try server.request("POST", "/platform/v2/onramp/mobile/challenges", json: body)
        return (response.status, response.body)
    }

    /// An assertion over `challenge`.
    mutating func assertion(for challenge: String) throws -> String {
        Base64.encode(try attester.generateAssertion(&key, clientDataHash: Self.clientDataHash(challenge)))
    }

    /// Session creation with a fresh assertion.
    mutating func createSession(challenge: String) throws -> (status: Int, body: JSONValue) {
        let assertion = try assertion(for: challenge)
        return try createSession(challenge: challenge, assertion: assertion)
    }

    /// Session creation with a given assertion.
    func createSession(challenge: String, assertion: String) throws -> (status: Int, body: JSONValue) {
        let response = try server.request(
            "POST", "/platform/v2/onramp/mobile/sessions",
            json: [
                "challenge": .string(challenge), "ios": ["keyId": .string(key.keyId), "assertion": .string(assertion)],
            ])
        return (response.status, response.body)
    }
}

/// A fresh PostgreSQL database on the server at `ONRAMP_TEST_POSTGRES_URL` for one test server, copied
/// from a template migrated once per run.
///
/// A database each, not a schema each in one database: PostgreSQL sends every catalog change (each
/// test's migrations, its `DROP … CASCADE`) to every backend connected to the same database, so with
/// dozens of test servers connected their DDL cost grew with the square of their number — measured as
/// a third of the whole suite's CPU, most of it in PostgreSQL's cache invalidation. Copying a migrated
/// template runs no DDL at all, and a catalog change in one database is skipped by the others' backends.
struct TestSchema {
    let url: String
    private let name: String

    /// `nil` for SQLite; a new database for PostgreSQL (failing when PostgreSQL is not configured), migrated
    /// unless `migrated` is false.
    init?(_ driver: DatabaseDriver, migrated: Bool = true) throws {
        guard driver == .postgres else { return nil }
        let cluster = try TestCluster.shared.get()
        name = "srv" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try cluster.admin.executeOutsideTransaction(
            "CREATE DATABASE \(name)" + (migrated ? " TEMPLATE \(cluster.template)" : ""))
        url = cluster.url(ofDatabase: name)
    }

    /// How many times each index of this database was searched (``statistics(_:)``).
    func indexScans() throws -> [String: Int64] {
        let rows = try statistics("SELECT indexrelname, idx_scan FROM pg_stat_user_indexes")
        return try Dictionary(
            uniqueKeysWithValues: rows.map { (try $0.string("indexrelname"), try $0.int("idx_scan")) })
    }

    /// Reads PostgreSQL's cumulative statistics of this database with `query`, once every other
    /// connection to it has ended: a backend hands its counts over as it exits, before it leaves
    /// `pg_stat_activity` (its `before_shmem_exit` hooks run before its `on_shmem_exit` ones). The
    /// server using the database must be shut down first.
    func statistics(_ query: String) throws -> [Row] {
        let database = try DatabaseURL.open(url)
        defer { database.close() }
        let others = """
            SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """
        for _ in 0..<500 where try database.read({ try $0.query(others).first?.int("n") }) != 0 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try database.read { try $0.query(query) }
    }

    func drop() {
        // FORCE: a connection the server has not closed yet is ended rather than keeping the database.
        try? TestCluster.shared.get().admin.executeOutsideTransaction("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

/// The test PostgreSQL server: an administration connection and the migrated template database,
/// made on first use.
final class TestCluster: Sendable {
    static let shared = Result { try TestCluster() }

    let admin: PostgresDatabase
    let template: String
    private let base: String

    private init() throws {
        guard let base = ProcessInfo.processInfo.environment["ONRAMP_TEST_POSTGRES_URL"] else {
            throw WebhookMissingPostgres()
        }
        self.base = base
        guard let admin = try DatabaseURL.open(base) as? PostgresDatabase else { throw WebhookMissingPostgres() }
        self.admin = admin
        template = "template_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try admin.executeOutsideTransaction("CREATE DATABASE \(template)")
        let database = try DatabaseURL.open(url(ofDatabase: template))
        defer { database.close() }
        try database.migrate(Schema.migrations)
        // The template would outlive the run on a PostgreSQL that is not throw-away.
        atexit {
            guard let cluster = try? TestCluster.shared.get() else { return }
            try? cluster.admin.executeOutsideTransaction("DROP DATABASE IF EXISTS \(cluster.template)")
        }
    }

    /// `ONRAMP_TEST_POSTGRES_URL` (a `postgres://host/db?…` URI) naming database `name` instead of its own.
    func url(ofDatabase name: String) -> String {
        let query = base.firstIndex(of: "?").map { base[$0...] } ?? ""
        let beforeQuery = base[..<(base.firstIndex(of: "?") ?? base.endIndex)]
        let authorityStart = beforeQuery.range(of: "://")?.upperBound ?? beforeQuery.startIndex
        let pathStart = beforeQuery[authorityStart...].firstIndex(of: "/") ?? beforeQuery.endIndex
        return beforeQuery[..<pathStart] + "/" + name + query
    }
}

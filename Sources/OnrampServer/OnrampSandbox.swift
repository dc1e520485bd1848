public import AppAttest
public import Foundation
public import HTTPServer
public import OnrampCore
import OnrampRuntime
public import OnrampServices
package import OnrampStore

/// A complete onramp server in process on a free loopback port: a temporary SQLite database (or the
/// database you name), a fresh test App Attest CA trusted next to Apple's root, the application and
/// its background workers. `onramp demo`, the test suites and partners' own integration tests start one
/// instead of wiring the parts by hand. Call ``shutdown()`` when done (it also deletes the temporary files).
public final class OnrampSandbox: Sendable {
    /// The temporary directory holding the SQLite file.
    public let directory: URL
    /// The database the server uses.
    package let database: any Database
    /// The application (routes and workers).
    public let application: OnrampApplication
    /// The HTTP server.
    public let server: HTTPServer
    /// The test CA whose root the server trusts for App Attest (when `trustTestRoot`).
    public let authority: TestCertificateAuthority

    /// Starts the sandbox.
    /// - Parameters:
    ///   - databaseURL: a database to use instead of a temporary SQLite file.
    ///   - trustTestRoot: whether App Attest objects from ``authority`` are accepted.
    ///   - clientRequestsPerSecond: the per-address limits of calls without a secret (`nil`, the default here: off).
    ///   - projectRequestsPerSecond: the per-project limit of App2App mobile calls (`nil`: off).
    ///   - jwtSingleUse: whether each CDP JWT is good for one request (see ``ServerContext/jwtSingleUse``).
    ///   - workerInterval: how often the background workers poll, in seconds (`nil`: workers not started).
    public init(
        databaseURL: String? = nil, clock: any OnrampCore.Clock = SystemClock(), settlementDelay: TimeInterval = 0,
        verificationDelay: TimeInterval = 2,
        settlement: any SettlementProvider = SimulatedSettlement(), trustTestRoot: Bool = true,
        clientRequestsPerSecond: Double? = nil, projectRequestsPerSecond: Double? = nil, jwtSingleUse: Bool = false,
        workerInterval: TimeInterval? = 0.02, threadCount: Int = 4
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onramp-sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try DatabaseURL.open(databaseURL ?? "sqlite:\(directory.path)/onramp.db")
        authority = try TestCertificateAuthority.create(at: clock.now())
        AccessLog.shared.configure(enabled: false)
        // Bind first: the public URL (in every onrampUrl and hosted page) carries the port.
        let socket = try ListeningSocket.bind(host: "127.0.0.1", port: 0)
        let context = ServerContext(
            database: database, clock: clock, publicBaseURL: "http://127.0.0.1:\(socket.port)",
            appAttestRoots: [AppleAppAttestRoot.certificate] + (trustTestRoot ? [authority.rootCertificate] : []),
            settlementDelay: settlementDelay, verificationDelay: verificationDelay,
            clientRequestsPerSecond: clientRequestsPerSecond,
            projectRequestsPerSecond: projectRequestsPerSecond, jwtSingleUse: jwtSingleUse)
        application = try OnrampApplication(context: context, settlement: settlement)
        server = HTTPServer(
            configuration: ServerConfiguration(
                port: socket.port, threadCount: threadCount, livenessPath: OperationsRoutes.livenessPath),
            router: application.router, metrics: application.metrics, requestLog: application.requestLog)
        try server.start(on: socket)
        if let workerInterval { application.startWorkers(interval: workerInterval) }
    }

    /// The port the server listens on.
    public var port: Int { server.port }

    /// `http://127.0.0.1:PORT`.
    public var rootURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// Stops the workers and the server, closes the database and deletes the temporary directory.
    public func shutdown() {
        application.stopWorkers()
        server.shutdown(gracePeriod: 1)
        database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

import AppAttest
import Foundation
import HTTPServer
import OnrampClient
import OnrampCrypto
import OnrampServer
import OnrampStore
import PartnerBackendKit
import Synchronization

/// What `onramp demo` runs against: the onramp server in process on a free port over a temporary SQLite
/// database (a fresh test App Attest CA trusted), one project, and the example partner backend's webhook
/// endpoints subscribed to both event families.
final class DemoSandbox: Sendable {
    static let appId = "ABCDE12345.com.example.wallet"
    static let bundleId = "com.example.wallet"
    static let redirectHost = "wallet.example.com"

    let directory: URL
    let database: any Database
    let application: OnrampApplication
    let server: HTTPServer
    let authority: TestCertificateAuthority
    let credentials: ProjectProvisioner.Credentials
    let ledger: PartnerLedger
    let receiver: PartnerWebhookReceiver
    let webhooks: PartnerBackendServer

    private let duplicates = DuplicateLog()

    init(settlementDelay: TimeInterval, onWebhook: @escaping @Sendable (ReceivedWebhook) -> Void) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onramp-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try DatabaseURL.open("sqlite:\(directory.path)/onramp.db")
        authority = try TestCertificateAuthority.create(at: Date())
        AccessLog.shared.configure(enabled: false)
        let socket = try ListeningSocket.bind(host: "127.0.0.1", port: 0)
        let port = socket.port
        let context = ServerContext(
            database: database, publicBaseURL: "http://127.0.0.1:\(port)",
            appAttestRoots: [AppleAppAttestRoot.certificate, authority.rootCertificate],
            settlementDelay: settlementDelay, mobileRequestsPerSecond: nil)
        application = try OnrampApplication(context: context)
        server = HTTPServer(
            configuration: ServerConfiguration(port: port, threadCount: 4), router: application.router,
            metrics: application.metrics)
        try server.start(on: socket)
        application.startWorkers(interval: 0.05)
        credentials = try ProjectProvisioner(database: database).createProject(
            name: "Demo Wallet", appIds: [Self.appId], redirectHosts: [Self.redirectHost], keyType: .es256)
        ledger = PartnerLedger()
        let duplicates = self.duplicates
        receiver = PartnerWebhookReceiver(ledger: ledger) { received in
            if received.duplicate { duplicates.eventIds.withLock { _ = $0.insert(received.eventId) } }
            onWebhook(received)
        }
        webhooks = try PartnerBackendServer(receiver: receiver)
    }

    /// Stops everything and deletes the temporary database.
    func shutdown() {
        webhooks.shutdown()
        server.shutdown(gracePeriod: 1)
        application.stopWorkers()
        database.close()
        try? FileManager.default.removeItem(at: directory)
    }

    var rootURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    var cdpKey: CDPAPIKey {
        get throws { try CDPAPIKey(id: credentials.cdpApiKeyId, secret: credentials.cdpApiKeySecret) }
    }

    /// Whether a redelivery of `eventId` reached the backend and was ignored.
    func receivedDuplicate(_ eventId: String) -> Bool {
        duplicates.eventIds.withLock { $0.contains(eventId) }
    }

    /// Waits up to `seconds` for `condition`.
    func eventually(_ seconds: Double = 15, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return condition()
    }
}

/// The event ids whose redelivery the backend ignored.
private final class DuplicateLog: Sendable {
    let eventIds = Mutex<Set<String>>([])
}

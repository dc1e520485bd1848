import AppAttest
import Foundation
import OnrampCrypto
import OnrampServer
import OnrampServices
import OnrampWire
import PartnerBackendKit
import Synchronization

/// What `onramp demo` runs against, with the example partner backend's webhook endpoints: by default the
/// onramp server in process on a free port over a temporary SQLite database (a fresh test App Attest CA
/// trusted); with `--server`, a server already running, reached through its console API (a new project, the
/// CA the server was told to trust), whose console then shows every object the demo made.
final class DemoSandbox: Sendable {
    static let appId = "ABCDE12345.com.example.wallet"
    static let bundleId = "com.example.wallet"
    static let redirectHost = "wallet.example.com"

    let rootURL: URL
    let credentials: ProjectProvisioner.Credentials
    let authority: TestCertificateAuthority
    let ledger: PartnerLedger
    let receiver: PartnerWebhookReceiver
    let webhooks: PartnerBackendServer
    /// How an event is redelivered: on the in-process server's database, or through the running one's console API.
    private let redelivery: @Sendable (String) throws -> Void
    /// The in-process server, stopped at ``shutdown()``; nil for a running server.
    private let local: OnrampSandbox?

    private let duplicates = DuplicateLog()

    /// A server of its own, settling after `settlementDelay`.
    convenience init(settlementDelay: TimeInterval, onWebhook: @escaping @Sendable (ReceivedWebhook) -> Void) throws {
        let sandbox = try OnrampSandbox(settlementDelay: settlementDelay, workerInterval: 0.05)
        let credentials = try ProjectProvisioner(database: sandbox.database).createProject(
            name: "Demo Wallet", appIds: [Self.appId], redirectHosts: [Self.redirectHost], keyType: .es256)
        let database = sandbox.database
        try self.init(
            rootURL: sandbox.rootURL, credentials: credentials, authority: sandbox.authority, local: sandbox,
            onWebhook: onWebhook
        ) { eventId in _ = try WebhookOperations(database: database).redeliver(eventId: eventId) }
    }

    /// The running server `server`, which trusts `authority`'s root for App Attest.
    convenience init(
        server: ServerConnection, authority: TestCertificateAuthority,
        onWebhook: @escaping @Sendable (ReceivedWebhook) -> Void
    ) throws {
        let created = try server.post(
            "/console/api/projects",
            [
                "name": "Demo Wallet", "appIds": [.string(Self.appId)], "redirectHosts": [.string(Self.redirectHost)],
            ])
        guard let credentials = ProjectProvisioner.Credentials(json: created), let root = URL(string: server.base)
        else { throw DemoFailure("\(server.base) answered an unexpected project: \(created.serializedString)") }
        try self.init(
            rootURL: root, credentials: credentials, authority: authority, local: nil, onWebhook: onWebhook
        ) { eventId in _ = try server.post("/console/api/events/redeliver", ["id": .string(eventId)]) }
    }

    private init(
        rootURL: URL, credentials: ProjectProvisioner.Credentials, authority: TestCertificateAuthority,
        local: OnrampSandbox?, onWebhook: @escaping @Sendable (ReceivedWebhook) -> Void,
        redelivery: @escaping @Sendable (String) throws -> Void
    ) throws {
        self.rootURL = rootURL
        self.credentials = credentials
        self.authority = authority
        self.local = local
        self.redelivery = redelivery
        ledger = PartnerLedger()
        let duplicates = self.duplicates
        receiver = PartnerWebhookReceiver(ledger: ledger) { received in
            if received.duplicate { duplicates.eventIds.withLock { _ = $0.insert(received.eventId) } }
            onWebhook(received)
        }
        webhooks = try PartnerBackendServer(receiver: receiver)
    }

    /// Stops the backend, and the in-process server with its temporary database.
    func shutdown() {
        webhooks.shutdown()
        local?.shutdown()
    }

    var cdpKey: CDPAPIKey {
        get throws { try CDPAPIKey(id: credentials.cdpApiKeyId, secret: credentials.cdpApiKeySecret) }
    }

    /// Whether the server outlives the demo, so its console can show what the demo made.
    var keepsObjects: Bool { local == nil }

    /// The console page at `path` of the server the demo ran against.
    func consoleLink(_ path: String) -> String { rootURL.absoluteString + path }

    /// Delivers `eventId` again, as an operator resending it.
    func redeliver(eventId: String) throws { try redelivery(eventId) }

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

import AppAttest
import Foundation
import HTTPServer
import OnrampClient
import OnrampCrypto
import OnrampServer
import OnrampServices
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

    let sandbox: OnrampSandbox
    let credentials: ProjectProvisioner.Credentials
    let ledger: PartnerLedger
    let receiver: PartnerWebhookReceiver
    let webhooks: PartnerBackendServer

    private let duplicates = DuplicateLog()

    init(settlementDelay: TimeInterval, onWebhook: @escaping @Sendable (ReceivedWebhook) -> Void) throws {
        sandbox = try OnrampSandbox(settlementDelay: settlementDelay, workerInterval: 0.05)
        credentials = try ProjectProvisioner(database: sandbox.database).createProject(
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
        sandbox.shutdown()
    }

    var rootURL: URL { sandbox.rootURL }
    var database: any Database { sandbox.database }
    var authority: TestCertificateAuthority { sandbox.authority }

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

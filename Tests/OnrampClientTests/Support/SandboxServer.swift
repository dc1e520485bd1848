import AppAttest
import Foundation
import HTTPServer
import OnrampBackend
import OnrampClient
import OnrampCrypto
import OnrampServer
import OnrampStore
import PartnerBackendKit

@testable import OnrampServices

/// A real onramp server on a loopback port over a fresh SQLite file, with a test App Attest CA trusted,
/// one partner project, and the partner backend's webhook endpoint subscribed to its events.
final class SandboxServer: @unchecked Sendable {
    // Immutable after init.
    let sandbox: OnrampSandbox
    let credentials: ProjectProvisioner.Credentials
    let ledger = PartnerLedger()
    let received = Received()
    let receiver: PartnerWebhookReceiver
    let webhooks: PartnerBackendServer
    let embeddedBackend: EmbeddedPartnerBackend

    static let appId = "ABCDE12345.com.example.wallet"
    static let bundleId = "com.example.wallet"
    static let redirectHost = "wallet.example.com"

    /// Every delivery the backend accepted.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [ReceivedWebhook] = []
        func append(_ item: ReceivedWebhook) { lock.withLock { items.append(item) } }
        var all: [ReceivedWebhook] { lock.withLock { items } }
    }

    init(settlementDelay: TimeInterval = 0, settlement: any SettlementProvider = SimulatedSettlement()) async throws {
        sandbox = try OnrampSandbox(settlementDelay: settlementDelay, verificationDelay: 0.2, settlement: settlement)
        let port = sandbox.port
        credentials = try ProjectProvisioner(database: sandbox.database).createProject(
            name: "Example Wallet", appIds: [Self.appId], redirectHosts: [Self.redirectHost], keyType: .es256)
        let received = self.received
        receiver = PartnerWebhookReceiver(ledger: ledger) { received.append($0) }
        embeddedBackend = EmbeddedPartnerBackend(
            serverURL: URL(string: "http://127.0.0.1:\(port)")!, secretKey: credentials.stripeSecretKey,
            oauthClientId: credentials.oauthClientId, oauthClientSecret: credentials.oauthClientSecret,
            receiver: receiver)
        webhooks = try PartnerBackendServer(receiver: receiver, embedded: embeddedBackend)
        let subscription = try await app2AppBackend.subscribeWebhooks(
            url: webhooks.baseURL + PartnerBackendServer.cdpPath)
        receiver.setCDPSecret(subscription.secret)
        receiver.setStripeSecret(
            try await embeddedBackend.createWebhookEndpoint(url: webhooks.baseURL + PartnerBackendServer.stripePath))
    }

    deinit {
        webhooks.shutdown()
        sandbox.shutdown()
    }

    var port: Int { sandbox.port }
    var database: any Database { sandbox.database }
    var authority: TestCertificateAuthority { sandbox.authority }
    var application: OnrampApplication { sandbox.application }
    var projectId: String { credentials.projectId }
    var rootURL: URL { sandbox.rootURL }

    var app2AppBackend: App2AppPartnerBackend {
        App2AppPartnerBackend(
            serverURL: rootURL,
            apiKey: try! CDPAPIKey(id: credentials.cdpApiKeyId, secret: credentials.cdpApiKeySecret))
    }

    var configuration: App2AppConfiguration {
        App2AppConfiguration(
            platformBaseURL: rootURL.appendingPathComponent("platform"), projectId: projectId, bundleId: Self.bundleId)
    }

    /// A client configuration with the project's publishable key.
    var stripeClient: STPAPIClient {
        STPAPIClient(publishableKey: credentials.stripePublishableKey, apiBaseURL: rootURL)
    }

    func attester(_ environment: AppAttestEnvironment = .production) -> SoftwareAppAttestProvider {
        SoftwareAppAttestProvider(
            attester: SoftwareAttester(authority: authority, appId: Self.appId, environment: environment))
    }

    static func purchase(user: String = "user-1") -> App2AppPurchase {
        App2AppPurchase(
            purchaseCurrency: "USDC", destinationNetwork: "base",
            destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
            redirectUrl: "https://\(redirectHost)/onramp-return", paymentAmount: "25.00", paymentCurrency: "USD",
            paymentMethod: "CARD", partnerUserRef: user, country: "US", subdivision: "CA")
    }

    /// Waits until `condition` holds or `seconds` pass.
    func eventually(_ seconds: Double = 30, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}

/// A settlement provider that holds every settlement until the test opens it, so "nothing is credited
/// before settlement" is checked without depending on timing.
final class GatedSettlement: SettlementProvider {
    private let opened = DispatchSemaphore(value: 0)
    private let simulator = SimulatedSettlement()

    /// Lets every waiting and future settlement through.
    func open() {
        for _ in 0..<64 { opened.signal() }
    }

    func settle(
        reference: String, network: String, asset: String, amount: String, walletAddress: String,
        partnerUserRef: String
    ) -> SettlementResult {
        // A test that forgets to open the gate still finishes (and then fails on its own expectations).
        _ = opened.wait(timeout: .now() + 30)
        return simulator.settle(
            reference: reference, network: network, asset: asset, amount: amount, walletAddress: walletAddress,
            partnerUserRef: partnerUserRef)
    }
}

import AppAttest
import Foundation
import OnrampClient
import OnrampServer
import PartnerBackendKit
import Testing

@testable import OnrampServices

/// App2App through the SDK against a real server on a real port, with the partner backend's webhook
/// endpoint and ledger.
@Suite(.serialized) struct App2AppClientTests {
    @Test func purchaseEndToEndCreditsOnlyFromTheSettledWebhook() async throws {
        let gate = GatedSettlement()
        let sandbox = try await SandboxServer(settlement: gate)
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore())
        let launch = try await client.launch(SandboxServer.purchase())
        guard case .app2App(let onrampURL) = launch else {
            Issue.record("expected an App2App launch, got \(launch)")
            return
        }
        #expect(onrampURL.absoluteString.hasPrefix("http://127.0.0.1:\(sandbox.port)/onramp/app2app?sessionToken="))

        let redirectURL = try await HeadlessHandoffBrowser().complete(onrampURL, action: .confirm)
        let redirect = try OnrampRedirect(url: redirectURL)
        guard case .success(let redirectTransactionId, _, "user-1", _) = redirect else {
            Issue.record("expected success, got \(redirect)")
            return
        }
        // The redirect alone credits nothing.
        #expect(sandbox.ledger.credits.isEmpty)
        gate.open()

        #expect(await sandbox.eventually { !sandbox.ledger.credits.isEmpty })
        let credit = try #require(sandbox.ledger.credits(for: "user-1").first)
        #expect(credit.amount == "24.36")
        #expect(credit.currency == "USDC")
        #expect(credit.txHash?.hasPrefix("0x") == true)

        let settlement = try await sandbox.app2AppBackend.transactions.waitForSettlement(
            partnerUserRef: "user-1", timeout: .seconds(30)
        ) { $0.walletAddress?.lowercased() == "0x52908400098527886e0f7030069857d2e4169ee7" }
        #expect(settlement.txHash == credit.txHash)
        #expect(settlement.transactionId != redirectTransactionId)
    }

    @Test func duplicateWebhookDeliveryCreditsOnce() async throws {
        let sandbox = try await SandboxServer()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore())
        let session = try await client.createSession(SandboxServer.purchase(user: "user-2"))
        _ = try await HeadlessHandoffBrowser().complete(session.onrampURL, action: .confirm)
        #expect(await sandbox.eventually { sandbox.ledger.credits.count == 1 })
        let eventId = try #require(sandbox.ledger.credits.first?.eventId)

        #expect(try WebhookOperations(database: sandbox.database).redeliver(eventId: eventId))
        #expect(await sandbox.eventually { sandbox.received.all.contains { $0.eventId == eventId && $0.duplicate } })
        #expect(sandbox.ledger.credits.count == 1)
        #expect(sandbox.ledger.balance(of: "user-2", currency: "USDC") == Decimal(string: "24.36"))
    }

    /// A live purchase without a partnerUserRef settles and its webhooks arrive, but the example ledger
    /// credits nobody: there is no user to match it to.
    @Test func aPurchaseWithoutPartnerUserRefCreditsNobody() async throws {
        let sandbox = try await SandboxServer()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore())
        var purchase = SandboxServer.purchase()
        purchase.partnerUserRef = nil
        let session = try await client.createSession(purchase)
        _ = try await HeadlessHandoffBrowser().complete(session.onrampURL, action: .confirm)
        #expect(
            await sandbox.eventually {
                sandbox.received.all.contains { $0.type == "onramp.transaction.success" }
            })
        #expect(sandbox.ledger.credits.isEmpty)
    }

    @Test func sandboxRedirectSucceedsWithoutAnyCredit() async throws {
        let sandbox = try await SandboxServer()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(.development),
            registrations: InMemoryAttestationRegistrationStore())
        let session = try await client.createSession(SandboxServer.purchase(user: "sandbox-user-3"))
        let redirect = try OnrampRedirect(
            url: try await HeadlessHandoffBrowser().complete(session.onrampURL, action: .confirm))
        guard case .success = redirect else {
            Issue.record("expected success, got \(redirect)")
            return
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(sandbox.ledger.credits.isEmpty)
        #expect(sandbox.received.all.isEmpty)
    }

    @Test func cancelAndReopenBothRedirectWithTheRecordedCancellation() async throws {
        let sandbox = try await SandboxServer()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore())
        let browser = HeadlessHandoffBrowser()
        let session = try await client.createSession(SandboxServer.purchase(user: "user-4"))
        let cancelled = try OnrampRedirect(url: try await browser.complete(session.onrampURL, action: .cancel))
        #expect(cancelled == .cancelled(sessionToken: cancelled.sessionToken, partnerUserRef: "user-4"))
        // The session is single use: opening it again buys nothing and sends the user back with the
        // outcome it recorded.
        let reopened = try OnrampRedirect(url: try await browser.complete(session.onrampURL, action: .confirm))
        #expect(reopened == .cancelled(sessionToken: reopened.sessionToken, partnerUserRef: "user-4"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(sandbox.ledger.credits.isEmpty)
    }

    @Test func reRegistersOnceWhenTheServerRefusesTheStoredKey() async throws {
        let sandbox = try await SandboxServer()
        let attester = sandbox.attester()
        // A key the device has but the server never registered (a registration from another install).
        let strayKey = try await attester.generateKey()
        let store = InMemoryAttestationRegistrationStore([
            AttestationRegistration(
                projectId: sandbox.projectId, keyId: strayKey, appId: SandboxServer.appId, attestedAt: "2026-01-01")
        ])
        let transport = RecordingTransport()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: attester, registrations: store, transport: transport)
        let session = try await client.createSession(SandboxServer.purchase())
        #expect(session.keyId != strayKey)
        #expect(await store.registration(forProject: sandbox.projectId)?.keyId == session.keyId)
        #expect(transport.count("/attestation/registrations") == 1)
        #expect(transport.count("POST /platform/v2/onramp/mobile/sessions") == 2)
    }

    @Test func reRegistersWhenTheDeviceLostTheKey() async throws {
        let sandbox = try await SandboxServer()
        let store = InMemoryAttestationRegistrationStore()
        let first = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(), registrations: store)
        let firstKey = try await first.register().keyId
        // A new process: the software attester has no keys, the registration is still stored.
        let second = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(), registrations: store)
        let session = try await second.createSession(SandboxServer.purchase())
        #expect(session.keyId != firstKey)
        #expect(await store.registration(forProject: sandbox.projectId)?.keyId == session.keyId)
    }

    @Test func aRegisteredKeyIsReusedAcrossPurchases() async throws {
        let sandbox = try await SandboxServer()
        let transport = RecordingTransport()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore(), transport: transport)
        let first = try await client.createSession(SandboxServer.purchase())
        let second = try await client.createSession(SandboxServer.purchase())
        #expect(first.keyId == second.keyId)
        #expect(first.onrampURL != second.onrampURL)
        #expect(transport.count("/attestation/registrations") == 1)
    }

    @Test func droppedConnectionIsRetriedAndReturnsTheSameURL() async throws {
        let sandbox = try await SandboxServer()
        let transport = RecordingTransport(dropping: 1)
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore(), transport: transport)
        let session = try await client.createSession(SandboxServer.purchase())
        #expect(transport.count("POST /platform/v2/onramp/mobile/sessions") == 2)
        let lost = try #require(transport.lost.first)
        let lostURL = try #require(
            (try JSONSerialization.jsonObject(with: lost) as? [String: Any]).flatMap {
                ($0["session"] as? [String: Any])?["onrampUrl"] as? String
            })
        #expect(session.onrampURL.absoluteString == lostURL)
    }

    @Test func persistentNetworkFailureIsANetworkError() async throws {
        let sandbox = try await SandboxServer()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore(), transport: RecordingTransport(dropping: 6),
            sessionAttempts: 3)
        await #expect(throws: App2AppError.self) { try await client.createSession(SandboxServer.purchase()) }
        do {
            _ = try await client.createSession(SandboxServer.purchase())
            Issue.record("expected a network error")
        } catch let error as App2AppError {
            #expect(error.code == .network)
            #expect(!error.userMessage.isEmpty)
        }
    }

    @Test func withoutTheOnrampAppTheHostedFallbackIsUsed() async throws {
        struct Fallback: HostedOnrampFallback {
            func hostedOnrampURL(for purchase: App2AppPurchase) async throws -> URL {
                URL(string: "https://pay.example.com/buy?ref=\(purchase.partnerUserRef ?? "")")!
            }
        }
        let sandbox = try await SandboxServer()
        let transport = RecordingTransport()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore(), transport: transport,
            capabilityChecker: FixedCapabilityChecker(false), hostedFallback: Fallback())
        let launch = try await client.launch(SandboxServer.purchase())
        #expect(launch == .hostedOnramp(URL(string: "https://pay.example.com/buy?ref=user-1")!))
        #expect(transport.requests.isEmpty)
    }

    @Test func thePartnerBackendsHostedSessionIsTheFallbackAndSettles() async throws {
        let sandbox = try await SandboxServer()
        let client = App2AppClient(
            configuration: sandbox.configuration, attestation: sandbox.attester(),
            registrations: InMemoryAttestationRegistrationStore(), capabilityChecker: FixedCapabilityChecker(false),
            hostedFallback: sandbox.app2AppBackend)
        let launch = try await client.launch(SandboxServer.purchase(user: "android-user"))
        guard case .hostedOnramp(let url) = launch else {
            Issue.record("expected the hosted onramp, got \(launch)")
            return
        }
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:\(sandbox.port)/buy/select-asset?sessionToken="))
        let redirect = try await HeadlessHandoffBrowser().complete(url, action: .confirm)
        #expect(
            redirect.absoluteString
                == "https://\(SandboxServer.redirectHost)/onramp-return?status=success&partnerUserRef=android-user")
        let settlement = try await sandbox.app2AppBackend.transactions.waitForSettlement(
            partnerUserRef: "android-user", timeout: .seconds(30))
        #expect(settlement.amount == "24.36")
        #expect(await sandbox.eventually { !sandbox.ledger.credits(for: "android-user").isEmpty })
    }

    @Test func fileStoreKeepsTheRegistrationAcrossInstances() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let registration = AttestationRegistration(
            projectId: "8c2f-project", keyId: "a/b+c=", appId: SandboxServer.appId, attestedAt: "2026-11-30T06:00:00Z")
        try await FileAttestationRegistrationStore(directory: directory).save(registration)
        #expect(
            try await FileAttestationRegistrationStore(directory: directory).registration(forProject: "8c2f-project")
                == registration)
        try await FileAttestationRegistrationStore(directory: directory).removeRegistration(forProject: "8c2f-project")
        #expect(
            try await FileAttestationRegistrationStore(directory: directory).registration(forProject: "8c2f-project")
                == nil)
    }
}

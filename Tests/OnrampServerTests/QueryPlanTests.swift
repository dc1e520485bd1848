import Foundation
import OnrampStore
import OnrampTestSupport
import Testing

@testable import OnrampServer

/// The statements the request paths run find their rows through indexes: SQLite's own counters of
/// full-scan steps and sorts (``StatementScanLog``) stay at zero for everything an App2App purchase
/// (registration, challenge, session, handoff, settlement, webhook delivery) and an Embedded session
/// (sign-up, KYC, wallet, payment token, create, checkout, fulfilment) run. A lookup without an index
/// costs the size of its table: it passes every functional test and slows down as the data grows.
/// (The 20,000-event webhook backlog sorted itself on every fan-out until migration 152; a project's
/// publishable key, which the platform settings and seamless sign-in read for a secret key, scanned
/// `api_keys` until migration 520.)
@Suite(.blocking) struct QueryPlanTests {
    @Test func anApp2AppPurchaseNeitherScansATableNorSorts() throws {
        let server = try TestServer(driver: .sqlite)
        let database = try #require(server.database as? SQLiteDatabase)
        let receiver = try WebhookReceiver()
        _ = try WebhookOperations(database: server.database).createSubscription(
            projectId: server.projectId, family: .cdp, url: receiver.url, eventTypes: ["*"], description: "plans")
        database.scanLog.reset()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase([]))
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        // Settled, its events delivered and their attempts recorded.
        #expect(receiver.wait { $0.contains { $0.text.contains("onramp.transaction.success") } })
        let pending = "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'"
        for _ in 0..<1500 where try server.count(pending) > 0 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try server.count(pending) == 0)
        Self.expectNoScans(database)
    }

    @Test func anEmbeddedSessionNeitherScansATableNorSorts() throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: .sqlite)
        let database = try #require(server.database as? SQLiteDatabase)
        database.scanLog.reset()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        // The platform settings a secret key asks for name the project's publishable key.
        let settings = try server.backend.get(
            "/v1/crypto/internal/platform_settings?crypto_customer_id=\(user.customerId)")
        #expect(settings.string("publishable_key") == server.credentials.stripePublishableKey, "\(settings)")
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        _ = try server.checkout(user, id)
        #expect(
            try server.waitForSession(id, status: "fulfillment_complete").string("status") == "fulfillment_complete")
        Self.expectNoScans(database)
    }

    static func expectNoScans(_ database: SQLiteDatabase, sourceLocation: SourceLocation = #_sourceLocation) {
        let scanning = database.scanLog.statements.map {
            "\($0.sql) (full-scan steps \($0.fullScanSteps), sorts \($0.sorts))"
        }
        #expect(scanning.isEmpty, "\(scanning)", sourceLocation: sourceLocation)
    }
}

import Foundation
import OnrampStore
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

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
        let (server, receiver) = try Self.subscribedServer(.sqlite)
        let database = try #require(server.database as? SQLiteDatabase)
        database.scanLog.reset()
        try Self.settlePurchase(on: server, receiver: receiver)
        Self.expectNoScans(database)
    }

    @Test func anEmbeddedSessionNeitherScansATableNorSorts() throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: .sqlite)
        let database = try #require(server.database as? SQLiteDatabase)
        database.scanLog.reset()
        let (user, _) = try Self.completeEmbeddedSession(on: server)
        // The platform settings a secret key asks for name the project's publishable key.
        let settings = try server.backend.get(
            "/v1/crypto/internal/platform_settings?crypto_customer_id=\(user.customerId)")
        #expect(settings.string("publishable_key") == server.credentials.stripePublishableKey, "\(settings)")
        Self.expectNoScans(database)
    }

    /// PostgreSQL plans a statement on a table it has not analyzed yet (a new database, a young table
    /// before autovacuum's first `ANALYZE`) with default estimates, and took the project's listing index
    /// `(project_id, created_at, id)` for a lookup by `id` and project: every session of the project read
    /// per checkout, the cold PostgreSQL rows of `make bench` a fifth slower. Lookups by key name the key
    /// alone now; this counts the listing indexes' searches (PostgreSQL's own statistics) over a purchase,
    /// an Embedded session and the retrieval of it and of one of its events, on a fresh database.
    @Test(.enabled(if: DatabaseDriver.all.contains(.postgres)))
    func onAFreshPostgreSQLDatabaseLookupsByKeyDoNotSearchAListingIndex() throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: .postgres)
        let (_, id) = try Self.completeEmbeddedSession(on: server)
        #expect(try server.backend.get("/v1/crypto/onramp_sessions/\(id)").status == 200)
        let event = try server.database.read {
            try $0.query("SELECT id FROM outbox_events WHERE family = 'stripe' ORDER BY id LIMIT 1").first?.string("id")
        }
        #expect(try server.backend.get("/v1/events/\(try #require(event))").status == 200)
        let embedded = try server.shutDownAndCountIndexScans()
        #expect(embedded["crypto_onramp_sessions_pkey", default: 0] > 0, "the counts were not read: \(embedded)")
        Self.expectNoListingSearches(embedded)

        let (purchase, receiver) = try Self.subscribedServer(.postgres)
        try Self.settlePurchase(on: purchase, receiver: receiver)
        let app2app = try purchase.shutDownAndCountIndexScans()
        #expect(app2app["attestation_challenges_pkey", default: 0] > 0, "the counts were not read: \(app2app)")
        Self.expectNoListingSearches(app2app)
    }

    /// An App2App server with a webhook endpoint for every CDP event.
    static func subscribedServer(_ driver: DatabaseDriver) throws -> (TestServer, WebhookReceiver) {
        let server = try TestServer(driver: driver)
        let receiver = try WebhookReceiver()
        _ = try WebhookOperations(database: server.database).createSubscription(
            projectId: server.projectId, family: .cdp, url: receiver.url, eventTypes: ["*"], description: "plans")
        return (server, receiver)
    }

    /// A purchase from key registration to settlement, its events delivered and their attempts recorded.
    static func settlePurchase(on server: TestServer, receiver: WebhookReceiver) throws {
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase([]))
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        #expect(receiver.wait { $0.contains { $0.text.contains("onramp.transaction.success") } })
        let pending = "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'"
        for _ in 0..<1500 where try server.count(pending) > 0 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try server.count(pending) == 0)
    }

    /// An Embedded session from sign-up to `fulfillment_complete`: its user and its id.
    static func completeEmbeddedSession(on server: EmbeddedTestServer) throws -> (EmbeddedTestServer.User, String) {
        let (user, id) = try server.paidSession()
        #expect(
            try server.waitForSession(id, status: "fulfillment_complete").string("status") == "fulfillment_complete")
        return (user, id)
    }

    static func expectNoListingSearches(_ scans: [String: Int64], sourceLocation: SourceLocation = #_sourceLocation) {
        let listings = scans.filter { $0.key.hasSuffix("_listing") && $0.value > 0 }
        #expect(listings.isEmpty, "\(listings)", sourceLocation: sourceLocation)
    }

    static func expectNoScans(_ database: SQLiteDatabase, sourceLocation: SourceLocation = #_sourceLocation) {
        let scanning = database.scanLog.statements.map {
            "\($0.sql) (full-scan steps \($0.fullScanSteps), sorts \($0.sorts))"
        }
        #expect(scanning.isEmpty, "\(scanning)", sourceLocation: sourceLocation)
    }
}

/// How many transactions a hot request takes, counted by the SQLite store (reads on its readers,
/// writes through group commit): every one is a `BEGIN`/`COMMIT` pair, and on PostgreSQL a round trip
/// or two. An Embedded create reads the caller (key, Link token, project clock) at most once — not at all
/// while the caller cache holds it — and does the rest in its write; a checkout likewise.
@Suite(.blocking) struct TransactionCountTests {
    @Test func anEmbeddedCreateAndCheckoutTakeOneReadAndOneWriteEach() throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, startWorkers: false, driver: .sqlite)
        let database = try #require(server.database as? SQLiteDatabase)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        func counts() -> [Int] { [database.readTransactions, database.groupCommitStatistics.transactions] }

        let beforeCreate = counts()
        let created = try server.createSession(user, token: token, wallet: wallet)
        #expect(created.string("status") == "requires_payment", "\(created)")
        let createCounts = zip(counts(), beforeCreate).map(-)
        #expect(createCounts[0] <= 1 && createCounts[1] == 1, "\(createCounts)")

        let beforeCheckout = counts()
        let paid = try server.checkout(user, created.string("id"))
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        let checkoutCounts = zip(counts(), beforeCheckout).map(-)
        #expect(checkoutCounts[0] <= 1 && checkoutCounts[1] == 1, "\(checkoutCounts)")

        // A refused create (another consumer's customer) rolls its one transaction back: no row.
        let stranger = try server.signUpAndAuthorize()
        let impostor = EmbeddedTestServer.User(
            email: stranger.email, consumerSecret: stranger.consumerSecret, customerId: user.customerId,
            accessToken: stranger.accessToken, refreshToken: stranger.refreshToken)
        let sessions = "SELECT COUNT(*) AS n FROM crypto_onramp_sessions"
        let rowsBefore = try database.read { try $0.query(sessions).first?.int("n") }
        let refused = try server.createSession(impostor, token: token, wallet: wallet)
        #expect(refused.status == 404, "\(refused)")
        #expect(try database.read { try $0.query(sessions).first?.int("n") } == rowsBefore)
    }
}

import Foundation
import HTTPServer
import OnrampCore
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// Test clocks: a test-mode project's clock moved ahead makes its requests decide expiries as if that
/// much time had passed — in either family's API, the console and the command line — and a live-mode
/// project keeps real time.
@Suite(.serialized, .blocking) struct TestClockTests {
    @Test(arguments: DatabaseDriver.all)
    func sixMinutesLaterAPurchaseChallengeIsStale(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let path = "/platform/v2/onramp/test_clocks/advance"
        let advanced = try server.request(
            "POST", path, json: ["seconds": 360],
            headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        #expect(advanced.status == 200, "\(advanced.body)")
        #expect(advanced.body["offsetSeconds"] == "360")
        let stale = try device.createSession(challenge: challenge)
        #expect(stale.status == 422 && stale.body["errorType"] == "stale_attestation", "\(stale.body)")
        // A challenge made in the project's new time is good for its own five minutes.
        let fresh = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        #expect(try device.createSession(challenge: fresh).status == 201)
        // Another project keeps real time.
        let other = try ProjectProvisioner(database: server.database).createProject(
            name: "Other", appIds: [TestServer.appId], redirectHosts: [TestServer.redirectHost], keyType: .es256)
        let offsets = try server.database.read {
            try $0.query("SELECT project_id FROM test_clocks", []).map { try $0.string("project_id") }
        }
        #expect(offsets == [server.projectId], "only the moved project runs ahead, not \(other.projectId)")
    }

    @Test(arguments: DatabaseDriver.all)
    func anEmbeddedQuoteExpiresWhenTheStripeClockMoves(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: driver)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        let seconds = Int(QuoteCalculator.defaultEmbeddedQuoteLifetime) + 60
        let moved = try server.backend.post("/v1/test_helpers/test_clocks/advance", [("seconds", String(seconds))])
        #expect(moved.status == 200, "\(moved)")
        #expect(moved["offset_seconds"] as? Int == seconds)
        let expired = try server.checkout(user, id)
        #expect(expired.string("status") == "requires_payment", "\(expired)")
        #expect(expired.string("transaction_details.last_error") == "charged_with_expired_quote", "\(expired)")
    }

    @Test func aLiveModeProjectCannotHaveItsClockMoved() throws {
        let server = try EmbeddedTestServer(livemode: true)
        let stripe = try server.backend.post("/v1/test_helpers/test_clocks/advance", [("seconds", "360")])
        #expect(stripe.status == 400 && stripe.string("error.code") == "livemode_test_clock", "\(stripe)")
        #expect(throws: TestClockControl.Refused.self) {
            try TestClockControl(database: server.database).advance(
                projectId: server.credentials.projectId, seconds: 360)
        }
        #expect(
            try server.database.read { try $0.query("SELECT COUNT(*) AS n FROM test_clocks", []).first?.int("n") } == 0)
    }

    @Test func theConsoleMovesAProjectsClock() throws {
        let server = try TestServer()
        let csrf = try ConsoleTests.csrf(server)
        let moved = ConsoleTests.post(
            server, "/console/projects/\(server.projectId)/clock", [("csrf", csrf), ("minutes", "6")])
        #expect(moved.status == 303)
        let page = ConsoleTests.text(ConsoleTests.get(server, "/console/projects/\(server.projectId)?clock=advanced"))
        #expect(page.contains("6 min ahead") && page.contains("The test clock moved."))
        #expect(
            ConsoleTests.post(server, "/console/projects/\(server.projectId)/clock", [("minutes", "6")]).status == 403)
    }

    /// A settlement due an hour from now runs once the project's clock moves an hour ahead, as it would
    /// in real time; the same purchase in another project would still wait.
    @Test(arguments: DatabaseDriver.all)
    func settlementsThatComeDueRunWhenTheClockMoves(driver: DatabaseDriver) throws {
        let server = try TestServer(settlementDelay: 3600, driver: driver)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase())
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let success = "SELECT COUNT(*) AS n FROM onramp_transactions WHERE status = 'ONRAMP_TRANSACTION_STATUS_SUCCESS'"
        let started =
            "SELECT COUNT(*) AS n FROM onramp_transactions WHERE status = 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS'"
        for _ in 0..<1500 where try server.count(started) == 0 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try server.count(started) == 1 && (try server.count(success)) == 0, "in progress, due in an hour")
        let path = "/platform/v2/onramp/test_clocks/advance"
        let moved = try server.request(
            "POST", path, json: ["seconds": "3700"],
            headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        #expect(moved.status == 200, "\(moved.body)")
        for _ in 0..<1500 where try server.count(success) == 0 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try server.count(success) == 1)
    }

    @Test(arguments: DatabaseDriver.all)
    func anEmbeddedFulfilmentDueLaterCompletesWhenTheClockMoves(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 3600, driver: driver)
        let (_, id) = try server.paidSession()
        let moved = try server.backend.post("/v1/test_helpers/test_clocks/advance", [("seconds", "3700")])
        #expect(moved.status == 200, "\(moved)")
        #expect(
            try server.waitForSession(id, status: "fulfillment_complete").string("status") == "fulfillment_complete")
    }

    /// KYC collected after the clock moved a day is decided after the simulated review's delay, in the
    /// project's time: its due time was written there, and the worker compares it there (it stayed
    /// `pending` for a day of real time when the worker compared it with real time).
    @Test(arguments: DatabaseDriver.all)
    func kycCollectedAfterTheClockMovedIsDecided(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(driver: driver)
        let moved = try server.backend.post("/v1/test_helpers/test_clocks/advance", [("seconds", "86400")])
        #expect(moved.status == 200, "\(moved)")
        let user = try server.signUpAndAuthorize()
        let customer = try server.collectKYC(user)
        let statuses = (customer["verifications"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
        #expect(statuses?.contains("pending") == false && statuses?.contains("verified") == true, "\(customer)")
    }

    /// A handoff link lives its fifteen minutes in its project's time: after the clock moves 16
    /// minutes the page says it has expired and no purchase can be made from it.
    @Test func aHandoffLinkExpiresWhenTheClockMoves() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase())
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try server.advanceClock(seconds: 960) > 0)
        let page = try HandoffBrowser(port: server.port).open(url)
        #expect(page.status == 410 && page.text.contains("This purchase link has expired."), "\(page.text)")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
    }

    /// A hosted onramp token lives its five minutes in its project's time: the JWT that made it was
    /// checked in real time, and after the clock moves five minutes the page says the link has expired.
    @Test func aHostedOnrampTokenExpiresWhenTheClockMoves() throws {
        let server = try TestServer()
        let token = try HostedOnrampTests().token(server)
        #expect(try server.advanceClock(seconds: 301) > 0)
        let page = try HostedOnrampBrowser(port: server.port).open(
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(token)")
        #expect(page.status == 410, "\(page.text)")
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions WHERE opened_at IS NOT NULL") == 0)
    }

    /// Headless orders in their project's time: after the clock moves an hour, an unpaid order's
    /// fifteen-minute payment link has expired and a paid order due to settle in an hour has settled.
    @Test(arguments: DatabaseDriver.all)
    func headlessOrdersExpireAndSettleWhenTheClockMoves(driver: DatabaseDriver) throws {
        let server = try TestServer(settlementDelay: 3600, driver: driver)
        let headless = HeadlessOnrampTests()
        let path = "/platform/v2/onramp/orders"
        let unpaid = try headless.post(server, path, HeadlessOnrampTests.orderBody())
        let unpaidLink = try #require(unpaid.body["paymentLink"]?["url"]?.stringValue)
        let paid = try headless.post(server, path, HeadlessOnrampTests.orderBody([("partnerUserRef", "guest-2")]))
        let paidId = try #require(paid.body["order"]?["orderId"]?.stringValue)
        let paidLink = try #require(paid.body["paymentLink"]?["url"]?.stringValue)
        #expect(try HeadlessOnrampTests.pay(server, link: paidLink, action: "approve").status == 200)
        #expect(try headless.waitForStatus(server, paidId, "ONRAMP_ORDER_STATUS_PROCESSING") != nil)

        #expect(try server.advanceClock(seconds: 3700) > 0)
        let linkURL = try #require(URL(string: unpaidLink))
        let page = try RawHTTPClient(port: server.port).request("GET", linkURL.path + "?" + (linkURL.query ?? ""))
        #expect(page.status == 410, "\(page.text)")
        #expect(try headless.waitForStatus(server, paidId, "ONRAMP_ORDER_STATUS_COMPLETED") != nil)
    }
}

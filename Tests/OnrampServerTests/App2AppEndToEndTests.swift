import AppAttest
import Foundation
import HTTPServer
import OnrampCore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The App2App purchase end to end on a real port: registration, challenge, assertion, session,
/// hosted handoff, redirect, settlement, transactions API, outbox.
@Suite(.serialized, .blocking) struct App2AppEndToEndTests {
    @Test(arguments: DatabaseDriver.all)
    func livePurchaseSettlesAndIsReportedByTheTransactionsAPI(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver, transport: .live)
        var device = try TestDevice(server: server, environment: .production)
        let registration = try device.register()
        #expect(registration.status == 200)
        #expect(registration.body["appId"] == .string(TestServer.appId))
        #expect(registration.body["platform"] == "ios")

        let challenge = try device.purchaseChallenge(device.purchase())
        #expect(challenge.status == 201)
        let challengeText = try #require(challenge.body["challenge"]?.stringValue)
        #expect(Base64URLBytes.count(challengeText) == 32)
        let session = try device.createSession(challenge: challengeText)
        #expect(session.status == 201)
        let onrampURL = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(onrampURL.hasPrefix("http://127.0.0.1:\(server.port)/onramp/app2app?sessionToken="))

        let browser = HandoffBrowser(port: server.port)
        let result = try browser.complete(onrampURL, action: "confirm")
        #expect(result.status == 303)
        let location = try #require(result.location)
        #expect(location.hasPrefix("https://\(TestServer.redirectHost)/onramp-return?status=success"))
        let query = HandoffBrowser.query(location)
        #expect(query["partnerUserRef"] == "user-1")
        let redirectTransactionId = try #require(query["transactionId"])
        #expect(query["sessionToken"] != nil)

        // Settlement runs in the background; poll the JWT-authenticated transactions API.
        let path = "/onramp/v1/buy/user/user-1/transactions"
        var transaction: JSONValue?
        for _ in 0..<1500 {  // up to 30 s on a loaded machine
            let response = try server.request(
                "GET", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
            #expect(response.status == 200)
            if let first = response.body["transactions"]?.arrayValue?.first,
                first["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS"
            {
                transaction = first
                #expect(response.body["total_count"] == "1")
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let settled = try #require(transaction)
        #expect(settled["partner_user_ref"] == "user-1")
        #expect(settled["purchase_currency"] == "USDC")
        #expect(settled["purchase_network"] == "base")
        #expect(settled["payment_total"]?["value"] == "25.00")
        // 25.00 total = 24.36 subtotal + 0.63 card fee (2.5 %, rounded up) + 0.01 base network fee.
        #expect(settled["payment_subtotal"]?["value"] == "24.36")
        #expect(settled["coinbase_fee"]?["value"] == "0.63")
        #expect(settled["network_fee"]?["value"] == "0.01")
        #expect(settled["purchase_amount"]?["value"] == "24.36")
        #expect(settled["tx_hash"]?.stringValue?.hasPrefix("0x") == true)
        #expect(settled["tx_hash"]?.stringValue?.count == 66)
        // The redirect's id is not the transactions API's id.
        #expect(settled["transaction_id"]?.stringValue != redirectTransactionId)

        let types = try server.database.read { connection in
            try connection.query(
                "SELECT type FROM outbox_events WHERE project_id = ? ORDER BY created_at, type",
                [.text(server.projectId)]
            ).map { try $0.string("type") }
        }
        #expect(
            Set(types) == ["onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success"])
        let payload = try server.database.read { connection in
            try connection.query(
                "SELECT payload FROM outbox_events WHERE type = 'onramp.transaction.success'", []
            ).first?.string("payload")
        }
        let event = try JSONParser().parse(try #require(payload))
        #expect(event["eventType"] == "onramp.transaction.success")
        #expect(event["partnerUserRef"] == "user-1")
        #expect(event["isAppToApp"] == true)
        #expect(event["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS")
    }

    @Test(arguments: DatabaseDriver.all)
    func sandboxPurchaseRedirectsButWritesNoTransactionAndNoEvent(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver, transport: .live)
        var device = try TestDevice(server: server, environment: .development)
        #expect(try device.register().status == 200)
        let challenge = try device.purchaseChallenge(device.purchase([("partnerUserRef", "sandbox-user-1234")]))
        let text = try #require(challenge.body["challenge"]?.stringValue)
        let session = try device.createSession(challenge: text)
        #expect(session.status == 201)
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        let result = try HandoffBrowser(port: server.port).complete(url, action: "confirm")
        let query = HandoffBrowser.query(try #require(result.location))
        #expect(query["status"] == "success")
        #expect(query["transactionId"] != nil)
        #expect(query["partnerUserRef"] == "sandbox-user-1234")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
        #expect(try server.count("SELECT COUNT(*) AS n FROM outbox_events") == 0)
        let path = "/onramp/v1/buy/user/sandbox-user-1234/transactions"
        let listing = try server.request(
            "GET", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
        #expect(listing.status == 200)
        #expect(listing.body["transactions"] == .array([]))
    }

    @Test func cancelRedirectsWithCancelledAndCreatesNothing() throws {
        let server = try TestServer(transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        let result = try HandoffBrowser(port: server.port).complete(url, action: "cancel")
        #expect(result.status == 303)
        let query = HandoffBrowser.query(try #require(result.location))
        #expect(query["status"] == "cancelled")
        #expect(query["transactionId"] == nil)
        #expect(query["partnerUserRef"] == "user-1")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
    }

    @Test func theRedirectKeepsAFragmentLast() throws {
        let server = try TestServer(transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let body = device.purchase([("redirectUrl", .string("https://\(TestServer.redirectHost)/back#tab"))])
        let text = try #require(try device.purchaseChallenge(body).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        let location = try #require(try HandoffBrowser(port: server.port).complete(url, action: "cancel").location)
        #expect(location.hasPrefix("https://\(TestServer.redirectHost)/back?status=cancelled&sessionToken="))
        #expect(location.hasSuffix("&partnerUserRef=user-1#tab"))
    }

    @Test func theHandoffTokenIsSingleUse() throws {
        let server = try TestServer(transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        // A HEAD (a link preview) does not spend the token.
        let target = String(url.dropFirst("http://127.0.0.1:\(server.port)".count))
        #expect(try RawHTTPClient(port: server.port).request("HEAD", target).status == 200)
        let browser = HandoffBrowser(port: server.port)
        let first = try browser.open(url)
        #expect(first.status == 200)
        #expect(first.text.contains("Payment method: Card."), "worded as on the hosted onramp page")
        let second = try browser.open(url)
        #expect(second.status == 410)
        #expect(second.text.contains("already used"))
        #expect(second.text.contains("status=error"))
    }

    /// Re-opening a confirmed purchase reports its recorded outcome: `success`, with its transaction,
    /// never `error` (which would invite a second purchase).
    @Test func reopeningAConfirmedHandoffReportsItsSuccess() throws {
        let server = try TestServer(transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        let browser = HandoffBrowser(port: server.port)
        let confirmed = try browser.complete(url, action: "confirm")
        let location = try #require(confirmed.location)
        let transactionId = try #require(HandoffBrowser.query(location)["transactionId"])
        let again = try browser.open(url)
        #expect(again.status == 200)
        #expect(again.text.contains("Purchase complete"))
        #expect(again.text.contains("status=success"))
        #expect(again.text.contains("transactionId=\(transactionId)"))
        #expect(!again.text.contains("status=error"))
        let outcome = try server.count("SELECT COUNT(*) AS n FROM purchase_sessions WHERE outcome = 'success'")
        #expect(outcome == 1)
    }

    @Test func anExpiredHandoffTokenSendsTheUserBackWithError() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        clock.advance(by: 15 * 60 + 1)
        let page = try HandoffBrowser(port: server.port).open(url)
        #expect(page.status == 410)
        #expect(page.text.contains("expired"))
        #expect(page.text.contains("status=error"))
    }

    @Test(arguments: DatabaseDriver.all)
    func sessionCreationIsIdempotentOnTheChallenge(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver, transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let assertion = try device.assertion(for: text)
        let first = try device.createSession(challenge: text, assertion: assertion)
        // The same request again (a retry after a dropped connection), then with a new assertion.
        let replay = try device.createSession(challenge: text, assertion: assertion)
        let fresh = try device.createSession(challenge: text)
        #expect(first.status == 201)
        #expect(replay.status == 201)
        #expect(fresh.status == 201)
        #expect(first.body["session"]?["onrampUrl"] == replay.body["session"]?["onrampUrl"])
        #expect(first.body["session"]?["onrampUrl"] == fresh.body["session"]?["onrampUrl"])
        #expect(try server.count("SELECT COUNT(*) AS n FROM purchase_sessions") == 1)
        // The database alone opens no page: the token is kept as its SHA-256 and a sealed copy.
        let url = try #require(first.body["session"]?["onrampUrl"]?.stringValue)
        let token = try #require(HandoffBrowser.query(url)["sessionToken"])
        let stored = try server.database.read {
            try #require(try $0.query("SELECT token, token_sealed FROM purchase_sessions", []).first)
        }
        #expect(try stored.string("token") == PurchaseSessionRepository.key(of: token))
        #expect(try !stored.string("token_sealed").contains(token))
        // A session stored before migration 510 (under the token itself, no sealed copy) still opens.
        try server.database.transaction {
            try $0.execute("UPDATE purchase_sessions SET token = ?, token_sealed = NULL", [.text(token)])
        }
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        #expect(try server.count("SELECT COUNT(*) AS n FROM purchase_sessions WHERE outcome = 'success'") == 1)
    }
}

/// Decodes challenge text to count its bytes.
enum Base64URLBytes {
    static func count(_ text: String) -> Int {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)?.count ?? -1
    }
}

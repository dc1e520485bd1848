import Foundation
import HTTPServer
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// The transactions API's paging and date filters: both spellings of the page parameters, the cursor to
/// the end and back, empty values as the contract writes them, and date-only bounds.
@Suite(.blocking) struct TransactionsAPITests {
    /// Five confirmed purchases for `user-1`, through the real mobile calls and handoff page.
    private static func serverWithFivePurchases() throws -> TestServer {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        #expect(try device.register().status == 200)
        for _ in 0..<5 {
            let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
            let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
            #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        }
        return server
    }

    private static func get(_ server: TestServer, _ path: String, _ query: String = "") throws -> (
        status: Int, body: JSONValue
    ) {
        let response = try server.request(
            "GET", path + (query.isEmpty ? "" : "?" + query),
            headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
        return (response.status, response.body)
    }

    private static func ids(_ body: JSONValue) -> [String] {
        body["transactions"]?.arrayValue?.compactMap { $0["transaction_id"]?.stringValue } ?? []
    }

    @Test func pagesWithEitherSpellingToTheEnd() throws {
        let server = try Self.serverWithFivePurchases()
        let path = "/onramp/v1/buy/user/user-1/transactions"
        let first = try Self.get(server, path, "page_size=2")
        #expect(first.status == 200 && Self.ids(first.body).count == 2)
        #expect(first.body["total_count"] == "5")
        let firstKey = try #require(first.body["next_page_key"]?.stringValue)
        #expect(!firstKey.isEmpty)
        let second = try Self.get(server, path, "pageSize=2&pageKey=\(firstKey)")
        #expect(Self.ids(second.body).count == 2)
        let secondKey = try #require(second.body["next_page_key"]?.stringValue)
        let last = try Self.get(server, path, "page_size=2&page_key=\(secondKey)")
        #expect(Self.ids(last.body).count == 1 && last.body["next_page_key"] == "")
        let all = Self.ids(first.body) + Self.ids(second.body) + Self.ids(last.body)
        #expect(Set(all).count == 5)
        // Empty values, as the contract spells the call and as the last page's key comes back, mean "none".
        let empty = try Self.get(server, path, "page_key=&page_size=")
        #expect(empty.status == 200 && Self.ids(empty.body) == all)
        #expect(Self.ids(try Self.get(server, path, "page_size=2&page_key=").body) == Self.ids(first.body))
        for query in ["page_key=not-a-cursor", "page_size=0", "page_size=1001", "pageSize=two"] {
            let refused = try Self.get(server, path, query)
            #expect(refused.status == 400 && refused.body["errorType"] == "invalid_request", "\(query): \(refused)")
        }
    }

    @Test func dateBoundsIncludeTheWholeEndDay() throws {
        let server = try Self.serverWithFivePurchases()
        let path = "/onramp/v1/buy/transactions"
        // The day the purchases were stored on (not "now", which may have passed midnight since).
        let stored = try #require(
            try server.database.read {
                try $0.query("SELECT MIN(created_at) AS t FROM onramp_transactions").first?.int("t")
            })
        let day = Date(timeIntervalSince1970: Double(stored) / 1000)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = formatter.string(from: day)
        let yesterday = formatter.string(from: day.addingTimeInterval(-86_400))
        let tomorrow = formatter.string(from: day.addingTimeInterval(86_400))
        #expect(Self.ids(try Self.get(server, path, "start_date=\(today)&end_date=\(today)").body).count == 5)
        #expect(Self.ids(try Self.get(server, path, "end_date=\(yesterday)").body).isEmpty)
        #expect(Self.ids(try Self.get(server, path, "start_date=\(tomorrow)").body).isEmpty)
        let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(60))
        #expect(Self.ids(try Self.get(server, path, "end_date=\(now)").body).count == 5)
        let refused = try Self.get(server, path, "start_date=last-week")
        #expect(refused.status == 400 && refused.body["errorType"] == "invalid_request")
        // Impossible dates and years that do not fit are refused, never read as something else (a
        // 9-digit year wrapped to a past date and listed everything).
        for bad in ["2026-02-30", "2026-13-01", "999999999-01-01", "10000-01-01T00:00:00Z", "2026-11-30T24:00:00Z"] {
            let answer = try Self.get(server, path, "start_date=\(bad)")
            #expect(answer.status == 400, "\(bad)")
            #expect(answer.body["errorMessage"]?.stringValue?.contains("calendar date") == true)
        }
    }

    /// A euro purchase reports its fee-inclusive total in USD through the asset's prices (USDC: 1 USD,
    /// 0.92 EUR in the standard catalogue), not the crypto's value.
    @Test func aEuroPurchaseReportsItsTotalInUSD() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        #expect(try device.register().status == 200)
        let purchase = device.purchase(
            [("paymentCurrency", "EUR"), ("paymentAmount", "46.00"), ("country", "DE")], removing: ["subdivision"])
        let text = try #require(try device.purchaseChallenge(purchase).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let listed = try Self.get(server, "/onramp/v1/buy/user/user-1/transactions")
        let transaction = try #require(listed.body["transactions"]?.arrayValue?.first)
        #expect(transaction["payment_total"]?["value"] == "46.00" && transaction["payment_total"]?["currency"] == "EUR")
        #expect(transaction["payment_total_usd"]?["value"] == "50.00", "46 EUR × 1 / 0.92")
    }

    /// A live purchase without a partnerUserRef still settles and is listed for the project (as on the
    /// hosted onramp); only the per-user listing cannot find it.
    @Test func aPurchaseWithoutPartnerUserRefStillSettles() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        #expect(try device.register().status == 200)
        let text = try #require(
            try device.purchaseChallenge(device.purchase(removing: ["partnerUserRef"])).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        var status: JSONValue?
        for _ in 0..<1500 where status != "ONRAMP_TRANSACTION_STATUS_SUCCESS" {  // settles in the background
            status = try Self.get(server, "/onramp/v1/buy/transactions").body["transactions"]?.arrayValue?.first?[
                "status"]
            if status != "ONRAMP_TRANSACTION_STATUS_SUCCESS" { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(status == "ONRAMP_TRANSACTION_STATUS_SUCCESS")
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.success'") == 1)
    }
}

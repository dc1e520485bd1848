import OnrampTestSupport
import Testing

/// `/metrics` reports SQLite's group commit next to the request metrics.
@Suite(.blocking) struct StoreMetricsTests {
    @Test func metricsCountWriteTransactionsAndTheirCommits() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try RawHTTPClient(port: server.port).request("GET", "/metrics").text
        func value(_ name: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
        }
        let transactions = try #require(value("onramp_sqlite_transactions_total"))
        let commits = try #require(value("onramp_sqlite_commits_total"))
        #expect(transactions > 0)
        #expect(commits >= 1 && commits <= transactions)
        #expect(text.contains("onramp_http_requests_total"))
    }
}

import Dispatch
import Foundation
import HTTPServer
import OnrampTestSupport
import Synchronization
import Testing

/// Checkout used to read the payment token and the wallet on other pooled connections while holding one
/// in its write transaction: with more checkouts at once than pool connections, every one waited for a
/// second connection that never came, and all answered 503 after the pool timeout. Reads inside a
/// transaction now use its own connection. PostgreSQL only (SQLite readers are not pooled this way).
@Suite(.serialized, .blocking) struct PoolStarvationTests {
    @Test func moreConcurrentCheckoutsThanPoolConnectionsAllSucceed() throws {
        let onPostgres = ProcessInfo.processInfo.environment["ONRAMP_TEST_POSTGRES_URL"] != nil
        if !onPostgres && ProcessInfo.processInfo.environment["ONRAMP_SKIP_POSTGRES"] == "1" { return }
        try #require(onPostgres, "ONRAMP_TEST_POSTGRES_URL is not set: run `scripts/with-postgres.sh swift test`")
        let server = try EmbeddedTestServer(poolSize: 2)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let ids = try (0..<6).map { _ in try server.createSession(user, token: token, wallet: wallet).string("id") }
        let answers = Mutex<[Int]>([])
        let done = DispatchGroup()
        for id in ids {
            done.enter()
            Thread {  // straight into the router on real threads: six checkouts, two connections
                let request = HTTPRequest(
                    method: "POST", path: "/v1/crypto/onramp_sessions/\(id)/checkout",
                    headers: HTTPHeaders([
                        ("Authorization", "Bearer \(server.credentials.stripeSecretKey)"),
                        ("Stripe-OAuth-Token", user.accessToken),
                        ("Content-Type", "application/x-www-form-urlencoded"),
                    ]))
                let status = server.application.router.respond(to: request).response.status
                answers.withLock { $0.append(status) }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(answers.withLock { $0 } == Array(repeating: 200, count: 6), "\(answers.withLock { $0 })")
    }
}

import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Keys, access tokens and clock offsets are kept in memory between requests (``CallerCache``): a
/// revocation is refused at once on the instance that made it and within a second on another instance on
/// the same database, on SQLite (entries expire) and on PostgreSQL (`LISTEN`/`NOTIFY`).
@Suite(.blocking) struct CallerCacheTests {
    /// A second server instance on `server`'s database, its requests answered in process.
    final class SecondInstance {
        let database: any Database
        let application: OnrampApplication

        init(on server: EmbeddedTestServer) throws {
            database = try DatabaseURL.open(server.databaseURL)
            application = try OnrampApplication(
                context: ServerContext(database: database, publicBaseURL: server.baseURL, appAttestRoots: []))
            application.startWorkers(interval: 0.1)
        }

        deinit {
            application.stopWorkers()
            database.close()
        }
    }

    /// `GET path` on `application` in process, with `headers`.
    static func get(_ application: OnrampApplication, _ path: String, _ headers: [(String, String)]) -> Int {
        var request = HTTPRequest(method: "GET", path: path)
        request.remoteAddress = "127.0.0.1"
        request.headers.add("Host", "127.0.0.1")
        for (name, value) in headers { request.headers.add(name, value) }
        return application.router.respond(to: request).response.status
    }

    /// Both instances answer `status` to `call` (twice each, the second from the cache).
    static func expectBoth(
        _ applications: [OnrampApplication], _ status: Int, _ call: (OnrampApplication) -> Int
    ) {
        for application in applications {
            for _ in 0..<2 { #expect(call(application) == status) }
        }
    }

    /// Revokes key `id` through `application`'s console API, as `onramp project revoke-key` does.
    static func revoke(_ id: String, on application: OnrampApplication) throws -> JSONValue {
        var request = HTTPRequest(
            method: "POST", path: "/console/api/keys/revoke", body: Array(#"{"id":"\#(id)"}"#.utf8))
        request.remoteAddress = "127.0.0.1"
        request.headers.add("Content-Type", "application/json")
        request.headers.add("Authorization", "Bearer \(application.consoleToken)")
        let response = application.router.respond(to: request).response
        #expect(response.status == 200)
        return try JSONParser().parse(response.body)
    }

    @Test(arguments: DatabaseDriver.all)
    func aRevokedKeyIsRefusedAtOnceHereAndWithinASecondOnAnotherInstance(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(driver: driver)
        let second = try SecondInstance(on: server)
        let both = [server.application, second.application]
        let secret = server.credentials.stripeSecretKey
        let stripe = { (application: OnrampApplication) in
            Self.get(application, "/v1/webhook_endpoints", [("Authorization", "Bearer \(secret)")])
        }
        let path = "/onramp/v1/buy/user/cache-user/transactions"
        let key = try CDPAPIKey(id: server.credentials.cdpApiKeyId, secret: server.credentials.cdpApiKeySecret)
        let cdp = { (application: OnrampApplication) in
            Self.get(
                application, path,
                [
                    (
                        "Authorization",
                        "Bearer \((try? key.jwt(method: "GET", host: "127.0.0.1", path: path, at: Date())) ?? "")"
                    )
                ])
        }
        Self.expectBoth(both, 200, stripe)
        Self.expectBoth(both, 200, cdp)
        #expect(second.application.context.callers.entryCount > 0, "the second instance keeps what it read")

        let stripeKeyId = try #require(
            try server.database.read { try APIKeyRepository(connection: $0).find(secret: secret) }?.id)
        let revoked = try Self.revoke(stripeKeyId, on: server.application)
        #expect(revoked["revoked"] == true && revoked["projectId"] == .string(server.credentials.projectId))
        #expect(stripe(server.application) == 401, "refused at once where it was revoked")
        #expect(cdp(server.application) == 200, "another key is untouched")
        Thread.sleep(forTimeInterval: 1)
        #expect(stripe(second.application) == 401, "refused within a second on the other instance")

        _ = try Self.revoke(server.credentials.cdpApiKeyId, on: second.application)
        #expect(cdp(second.application) == 401)
        Thread.sleep(forTimeInterval: 1)
        #expect(cdp(server.application) == 401)
        #expect(try Self.revoke(stripeKeyId, on: server.application)["revoked"] == true, "again: no change")
    }

    @Test(arguments: DatabaseDriver.all)
    func aRevokedAccessTokenIsRefusedAtOnceHereAndWithinASecondOnAnotherInstance(driver: DatabaseDriver) throws {
        let clock = ManualClock(Date())
        let server = try EmbeddedTestServer(clock: clock, driver: driver)
        let second = try SecondInstance(on: server)
        let user = try server.signUpAndAuthorize()
        let customer = { (application: OnrampApplication) in
            Self.get(
                application, "/v1/crypto/customers/\(user.customerId)",
                [
                    ("Authorization", "Bearer \(server.credentials.stripeSecretKey)"),
                    ("Stripe-OAuth-Token", user.accessToken),
                ])
        }
        Self.expectBoth([server.application, second.application], 200, customer)
        // A refresh token used twice (outside the concurrent window) revokes its whole family.
        func refresh() throws -> StripeTestClient.Reply {
            try server.backend.post(
                "/auth/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", user.refreshToken),
                    ("client_id", server.credentials.oauthClientId),
                    ("client_secret", server.credentials.oauthClientSecret),
                ])
        }
        #expect(try refresh().status == 200)
        clock.advance(by: Double(OAuthTokens.concurrentRotationSeconds) + 1)
        #expect(try refresh().string("error") == "invalid_grant")
        #expect(customer(server.application) == 401, "refused at once where it was revoked")
        Thread.sleep(forTimeInterval: 1)
        #expect(customer(second.application) == 401, "refused within a second on the other instance")
    }

    /// A moved test clock is seen at once by the instance that moved it, though its offset was cached.
    @Test func aMovedClockIsSeenAtOnce() throws {
        let server = try EmbeddedTestServer()
        let clocks = server.application.context.testClocks
        let project = server.credentials.projectId
        func offset() throws -> Int64 { try clocks.bound(to: project) { TestClockOffset.milliseconds } }
        #expect(try offset() == 0 && offset() == 0)
        _ = try clocks.advance(projectId: project, seconds: 60)
        #expect(try offset() == 60_000)
    }

    /// A clock moved from another process (`onramp clock advance` on the database) is seen within a second.
    @Test(arguments: DatabaseDriver.all)
    func aClockMovedFromAnotherProcessIsSeenWithinASecond(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(driver: driver)
        let clocks = server.application.context.testClocks
        let project = server.credentials.projectId
        func offset() throws -> Int64 { try clocks.bound(to: project) { TestClockOffset.milliseconds } }
        #expect(try offset() == 0 && offset() == 0)
        _ = try TestClockControl(database: server.database).advance(projectId: project, seconds: 60)
        Thread.sleep(forTimeInterval: 1)
        #expect(try offset() == 60_000)
    }

    /// Without a listener an entry lives ``CallerCache/lifetimeMilliseconds`` from the start of its read; a
    /// read that began before an invalidation is not stored after it.
    @Test func entriesExpireAndAReadOlderThanAnInvalidationIsDropped() {
        let now = Atomic<Int64>(1_000)
        let cache = CallerCache(now: { now.load(ordering: .relaxed) })
        var reads = 0
        func read() -> Int? {
            cache.value(.stripeKey, "k") { () -> Int? in
                reads += 1
                return 7
            }
        }
        #expect(read() == 7 && read() == 7 && reads == 1)
        now.store(1_000 + CallerCache.lifetimeMilliseconds - 1, ordering: .relaxed)
        #expect(read() == 7 && reads == 1)
        now.store(1_000 + CallerCache.lifetimeMilliseconds, ordering: .relaxed)
        #expect(read() == 7 && reads == 2, "read again once its lifetime is out")
        let ticket = cache.ticket()
        cache.invalidate()
        cache.store(8, .stripeKey, "stale", after: ticket)
        #expect(cache.value(.stripeKey, "stale", as: Int.self) == nil, "a read older than the invalidation")
        #expect(cache.value(.stripeKey, "k", as: Int.self) == nil, "emptied")
        #expect(cache.value(.cdpKey, "k", as: Int.self) == nil, "kinds are apart")
    }
}

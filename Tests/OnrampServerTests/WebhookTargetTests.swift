import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

@Suite("Webhook targets", .blocking)
struct WebhookTargetTests {
    /// A server listening on loopback alone (a developer's machine) and one listening on every address (a
    /// shared sandbox), as `onramp serve` makes them.
    static let loopbackOnly = WebhookTargetPolicy.forServer(
        listeningOn: "127.0.0.1", allowLocal: false, allowPrivate: false)
    static let shared = WebhookTargetPolicy.forServer(listeningOn: "0.0.0.0", allowLocal: false, allowPrivate: false)

    static func accepts(_ url: String, _ policy: WebhookTargetPolicy) -> Bool {
        (try? WebhookTargetURL.validate(url, param: "url", code: "url_invalid", policy: policy)) == url
    }

    /// Link-local, metadata, unspecified, multicast and broadcast addresses, in every spelling `inet_aton`
    /// and `inet_pton` read, are refused in both modes and whatever the operator allows.
    @Test(arguments: [
        "https://169.254.169.254/latest/meta-data", "https://0xa9fea9fe/x", "https://2852039166/x",
        "https://0251.0376.0251.0376/x", "https://169.254.43518/x", "https://0xA9.0xFE.0xA9.0xFE/x",
        "https://[fe80::1]/x", "https://[FE80::1%25eth0]/x", "https://[::ffff:169.254.169.254]/x",
        "https://[::ffff:a9fe:a9fe]/x", "https://[64:ff9b::a9fe:a9fe]/x", "https://0.0.0.0/x", "https://0/x",
        "https://[::]/x", "https://224.0.0.1/x", "https://255.255.255.255/x", "https://[ff02::1]/x",
    ])
    func linkLocalAndMetadataAddressesAreRefusedInEverySpelling(url: String) {
        let permissive = WebhookTargetPolicy(allowsPrivate: true, allowsLoopback: true)
        for policy in [Self.loopbackOnly, Self.shared, permissive] {
            #expect(!Self.accepts(url, policy), "\(url) under \(policy)")
        }
    }

    /// Private addresses (RFC 1918, CGNAT, ULA), however written, only with the operator's flag.
    @Test(arguments: [
        "https://10.0.0.5/hook", "https://10.1/x", "https://167772161/x", "https://0x0a000001/x",
        "https://012.0.0.1/x", "https://192.168.1.1/x", "https://172.20.0.1/x", "https://100.64.0.1/x",
        "https://[fd00::1]/x", "https://[::ffff:10.0.0.1]/x",
    ])
    func privateAddressesNeedTheOperatorsFlag(url: String) {
        #expect(!Self.accepts(url, Self.loopbackOnly) && !Self.accepts(url, Self.shared), "\(url)")
        let allowed = WebhookTargetPolicy.forServer(listeningOn: "0.0.0.0", allowLocal: false, allowPrivate: true)
        #expect(Self.accepts(url, allowed), "\(url)")
    }

    /// Loopback is a local target: accepted when the server listens on loopback alone, refused when it
    /// listens beyond it unless the operator allows local targets.
    @Test(arguments: [
        "http://127.0.0.1:9000/x", "http://localhost/x", "http://[::1]:9000/x", "http://2130706433/x",
        "http://0x7f000001/x", "http://127.1/x", "http://hooks.localhost/x", "https://[::ffff:127.0.0.1]/x",
    ])
    func loopbackIsALocalTarget(url: String) {
        #expect(Self.accepts(url, Self.loopbackOnly), "\(url)")
        #expect(!Self.accepts(url, Self.shared), "\(url)")
        #expect(
            Self.accepts(url, .forServer(listeningOn: "0.0.0.0", allowLocal: true, allowPrivate: false)), "\(url)")
        #expect(Self.accepts(url, .forServer(listeningOn: "::1", allowLocal: false, allowPrivate: false)), "\(url)")
    }

    @Test(arguments: [
        "https://user:pass@hooks.example.com/x", "http://hooks.example.com/x", "ftp://127.0.0.1/x",
        "http://10.0.0.1/x",
    ])
    func plainOrCredentialedTargetsAreRefused(url: String) {
        #expect(!Self.accepts(url, WebhookTargetPolicy(allowsPrivate: true, allowsLoopback: true)), "\(url)")
    }

    @Test(arguments: [
        "https://hooks.example.com/x", "https://8.8.8.8/x", "https://172.32.0.1/x", "https://134744072/x",
    ])
    func publicTargetsAreAccepted(url: String) {
        #expect(Self.accepts(url, Self.loopbackOnly) && Self.accepts(url, Self.shared), "\(url)")
    }

    /// `inet_aton`'s forms, compared with the C library's own reading of the same text.
    @Test(arguments: [
        "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "10.1", "127.1", "1.2.3", "0x7f.1", "0", "1.2.3.4",
        "1.2.3.256", "256.1", "1.2.3.4.5", "08.1.1.1", "0x", "1..2", "", "4294967296", "0xffffffff",
    ])
    func ipv4SpellingsReadAsInetAtonReadsThem(text: String) {
        var address = in_addr()
        let expected: [UInt8]? =
            inet_aton(text, &address) == 1 ? withUnsafeBytes(of: &address.s_addr) { Array($0) } : nil
        #expect(TargetAddress.inetAton(Substring(text)) == expected, "\(text)")
    }

    /// The addresses a connection may be opened to (checked before the socket is made, for whatever name
    /// led there).
    @Test func connectionAddressesAreCheckedToo() {
        for address in [
            "10.1.2.3", "169.254.169.254", "192.168.0.10", "0.0.0.0", "fe80::1", "fd12::1", "::ffff:10.0.0.1",
            "172.16.0.1", "172.31.255.255", "100.64.0.1", "[FE80::1]", "224.0.0.251", "ff02::fb",
        ] {
            #expect(!Self.shared.allowsConnection(to: address), "\(address)")
        }
        for address in ["8.8.8.8", "2001:db8::1", "172.32.0.1", "100.128.0.1"] {
            #expect(Self.shared.allowsConnection(to: address), "\(address)")
        }
        #expect(Self.loopbackOnly.allowsConnection(to: "127.0.0.1") && Self.loopbackOnly.allowsConnection(to: "::1"))
        #expect(!Self.shared.allowsConnection(to: "127.0.0.1") && !Self.shared.allowsConnection(to: "::1"))
    }

    /// A name accepted at creation that resolves to a refused address at delivery (here `localhost`, on a
    /// server that listens beyond loopback) is refused before any connection is opened: the listener on that
    /// address never sees a handshake, and the attempt records why, with no response from it.
    @Test(arguments: DatabaseDriver.all)
    func aNameResolvingToARefusedAddressIsNeverConnected(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url, webhookTargets: Self.shared)
            defer { fixture.database.close() }
            let listener = try LoopbackListener()
            // Stored as the operator's tools store it (no creation check), as a name that resolved elsewhere then.
            try fixture.subscribe(.stripe, url: "http://localhost:\(listener.port)/hook")
            let eventId = try fixture.emitStripeEvent()
            try WebhookDispatcher(context: fixture.context).step()
            #expect(listener.pendingConnections() == 0, "no TCP handshake reached the listener")
            let delivery = try #require(fixture.deliveries(of: eventId).first)
            #expect(delivery.lastStatusCode == nil && delivery.status == "pending")
            #expect(delivery.lastError?.contains("no connection made") == true, "\(delivery.lastError ?? "none")")
        }
    }

    /// Over the API: a server listening beyond loopback refuses a loopback endpoint in Stripe's error shape
    /// (`url_invalid`), and a private one; one on loopback alone accepts the loopback endpoint.
    @Test func theAPIRefusesWhatThePolicyRefuses() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            func create(_ target: String, _ policy: WebhookTargetPolicy) throws -> HTTPResponse {
                let routes = WebhookEndpointRoutes(
                    context: fixture.context,
                    service: WebhookSubscriptionService(
                        database: fixture.database, ids: fixture.context.ids, clock: fixture.context.clock,
                        targets: policy))
                let body = "url=\(PercentEncoding.encode(target))&enabled_events[]=*"
                let request = HTTPRequest(
                    method: "POST", target: "/v1/webhook_endpoints",
                    headers: HTTPHeaders([
                        ("Authorization", "Bearer \(fixture.credentials.stripeSecretKey)"),
                        ("Content-Type", "application/x-www-form-urlencoded"),
                    ]), body: Array(body.utf8))
                do {
                    return try routes.createEndpoint(request)
                } catch let error as FieldError {
                    return HTTPResponse(status: error.status, body: Array("\(error.code) \(error.param ?? "")".utf8))
                } catch let error as HTTPError {
                    return HTTPResponse(status: error.status, body: Array("\(error.code) \(error.param ?? "")".utf8))
                }
            }
            let refused = try create("http://0x7f000001:9000/hook", Self.shared)
            #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self) == "url_invalid url")
            #expect(try create("https://10.1/hook", Self.shared).status == 400)
            #expect(try create("http://0x7f000001:9000/hook", Self.loopbackOnly).status == 200)
        }
    }

    /// An endpoint's own headers over the signed defaults: one field per name, compared ignoring ASCII
    /// case only (`^` and `~` are different token characters), at its first place with its last value.
    @Test func headersMergeByNameIgnoringASCIICase() {
        let merged = WebhookDispatcher.merged([
            ("X-A", "1"), ("Content-Type", "a"), ("x-a", "2"), ("X-^", "3"), ("X-~", "4"), ("CONTENT-TYPE", "b"),
        ])
        #expect(merged.map { "\($0.0)=\($0.1)" } == ["X-A=2", "Content-Type=b", "X-^=3", "X-~=4"])
    }

    /// A redirect is not followed: the attempt records the 3xx and the delivery stays pending.
    @Test func redirectsAreNotFollowed() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let target = try WebhookReceiver()
            let redirector = try WebhookRedirector(to: target.url)
            try fixture.subscribe(.stripe, url: redirector.url)
            let eventId = try fixture.emitStripeEvent()
            try WebhookDispatcher(context: fixture.context).step()
            #expect(target.deliveries.isEmpty)
            let delivery = try #require(fixture.deliveries(of: eventId).first)
            #expect(delivery.lastStatusCode == 307)
            #expect(delivery.status == "pending")
        }
    }

    /// One tenant's never-answering endpoints and a backlog of 640 deliveries to them do not hold up another
    /// tenant: its delivery arrives while every one of theirs is still held unanswered. The bound, stated
    /// causally (no clock): with a request timeout of a minute, the other tenant's delivery goes out within
    /// the rounds that follow its commit, because the hanging project holds at most its share (64) of the 256
    /// slots and each of its endpoints at most 16; without the share the backlog took every slot and the other
    /// delivery waited for the first timeouts.
    @Test(arguments: DatabaseDriver.all)
    func oneTenantsHangingEndpointsLeaveRoomForAnother(driver: DatabaseDriver) async throws {
        try await withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let workers = BackgroundWorkers()
            // Stopped last, once every held request has been let go (defers run in reverse).
            defer { workers.stopAll() }
            let released = Mutex(false)
            let held = Mutex(0)
            let hanging = try WebhookReceiver { _ in
                held.withLock { $0 += 1 }
                // Held until the test ends (at most a minute), then answered at once.
                let deadline = Date().addingTimeInterval(60)
                while !released.withLock({ $0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
                return 200
            }
            defer { released.withLock { $0 = true } }
            for _ in 0..<16 { try fixture.subscribe(.cdp, url: hanging.url) }
            let other = try ProjectProvisioner(database: fixture.database).createProject(
                name: "Other tenant", appIds: [], redirectHosts: [], keyType: .es256)
            let fast = try WebhookReceiver()
            try fixture.subscribe(.cdp, url: fast.url, projectId: other.projectId)
            for _ in 0..<40 { try fixture.emitCDPEvent() }
            WebhookDispatcher(context: fixture.context, configuration: .init(requestTimeout: 60))
                .start(on: workers, interval: 0.02)
            #expect(await Eventually.holds(timeout: 30) { held.withLock { $0 } > 0 }, "the backlog is being sent")
            let event = try fixture.emitCDPEvent(projectId: other.projectId)
            #expect(
                await fast.wait(timeout: 30) { $0.contains { $0.eventId == event } },
                "the other tenant's delivery waited for the hanging endpoints")
            withExtendedLifetime(hanging) {}  // its requests stay held until the defers let them go
        }
    }

    /// The background pipeline does not let a slow endpoint hold up the others: every delivery to the
    /// fast endpoint arrives while the slow endpoint still holds its request (a causal check, no clock).
    @Test func slowEndpointDoesNotHoldUpOthers() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let release = DispatchSemaphore(value: 0)
            let slow = try WebhookReceiver { _ in
                // Held until the fast deliveries are in (or, if they never come, until the waits below end).
                _ = release.wait(timeout: .now() + 40)
                return 200
            }
            let fast = try WebhookReceiver()
            try fixture.subscribe(.stripe, url: slow.url)
            try fixture.subscribe(.cdp, url: fast.url)
            let application = try OnrampApplication(context: fixture.context)
            application.startWorkers(interval: 0.02)
            defer { application.stopWorkers() }
            try fixture.emitStripeEvent()
            var ids: Set<String> = []
            for _ in 0..<20 { ids.insert(try fixture.emitCDPEvent()) }
            #expect(
                fast.wait(timeout: 30) { Set($0.compactMap(\.eventId)) == ids },
                "fast deliveries wait for the slow one")
            release.signal()
            #expect(slow.wait(timeout: 30) { $0.count == 1 })
        }
    }
}

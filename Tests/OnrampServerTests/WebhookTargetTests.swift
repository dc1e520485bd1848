import Foundation
import HTTPServer
import OnrampTestSupport
import Testing

@testable import OnrampServer

@Suite("Webhook targets", .blocking)
struct WebhookTargetTests {
    @Test(arguments: [
        "https://10.0.0.5/hook", "https://169.254.169.254/latest/meta-data", "https://192.168.1.1/x",
        "https://172.20.0.1/x", "https://[fd00::1]/x", "https://[fe80::1]/x", "https://0.0.0.0/x",
        "https://user:pass@hooks.example.com/x", "http://hooks.example.com/x", "ftp://127.0.0.1/x",
    ])
    func internalOrPlainTargetsAreRefused(url: String) {
        #expect(throws: HTTPError.self) { try WebhookTargetURL.validate(url, param: "url", code: "url_invalid") }
    }

    @Test(arguments: [
        "https://hooks.example.com/x", "https://8.8.8.8/x", "http://127.0.0.1:9000/x", "http://localhost/x",
        "https://172.32.0.1/x",
    ])
    func publicAndLocalDevelopmentTargetsAreAccepted(url: String) throws {
        #expect(try WebhookTargetURL.validate(url, param: "url", code: "url_invalid") == url)
    }

    /// An endpoint's own headers over the signed defaults: one field per name, compared ignoring ASCII
    /// case only (`^` and `~` are different token characters), at its first place with its last value.
    @Test func headersMergeByNameIgnoringASCIICase() {
        let merged = WebhookDispatcher.merged([
            ("X-A", "1"), ("Content-Type", "a"), ("x-a", "2"), ("X-^", "3"), ("X-~", "4"), ("CONTENT-TYPE", "b"),
        ])
        #expect(merged.map { "\($0.0)=\($0.1)" } == ["X-A=2", "Content-Type=b", "X-^=3", "X-~=4"])
    }

    /// The addresses a connection may land on (the HTTP client asks after connecting, whatever name led
    /// there): loopback and public ones, not private, link-local or unspecified ones.
    @Test func connectedAddressesAreCheckedToo() {
        for address in [
            "10.1.2.3", "169.254.169.254", "192.168.0.10", "0.0.0.0", "fe80::1", "fd12::1", "::ffff:10.0.0.1",
            "172.16.0.1", "172.31.255.255", "100.64.0.1", "[FE80::1]", "010.0.0.1",
        ] {
            #expect(!WebhookTargetURL.allowsConnection(to: address), "\(address)")
        }
        for address in ["127.0.0.1", "::1", "8.8.8.8", "2001:db8::1", "172.32.0.1", "100.128.0.1"] {
            #expect(WebhookTargetURL.allowsConnection(to: address), "\(address)")
        }
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

import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Coinbase's embedded-mode Headless orders (`../shared/audits/coinbase-2026.md` §3.1; the request of
/// `coinbase/onramp-v2-mobile-demo` `server/src/embeddedOrder.ts` at b956f510): an order without phone number or
/// email waits for its user on an `EMBEDDED_ORDER` page (contact details, the sandbox code), then pays on the
/// wallet's button page; the verified user's `userAuthToken` takes the next order to the same wallet straight to
/// payment, and a forged, foreign or expired token is refused.
@Suite(.serialized, .blocking) struct HeadlessEmbeddedOrderTests {
    typealias Headless = HeadlessOnrampTests
    static let orders = "/platform/v2/onramp/orders"

    /// The demo's embedded order: no phone, email, verification time or agreement.
    static func embeddedBody(_ overrides: [(String, JSONValue)] = []) -> JSONValue {
        Headless.orderBody(
            overrides + [("clientIp", "203.0.113.7")],
            removing: ["phoneNumber", "email", "phoneNumberVerifiedAt", "agreementAcceptedAt"])
    }

    /// Posts a form to the embedded page and answers the response.
    static func submit(_ server: TestServer, _ fields: [(String, String)]) throws -> RawHTTPClient.Response {
        try RawHTTPClient(port: server.port).request(
            "POST", EmbeddedOrderPage.path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(StripeTestClient.formEncode(fields).utf8))
    }

    static func token(of link: String) throws -> String {
        let components = try #require(URLComponents(string: link))
        return try #require(components.queryItems?.first { $0.name == "sessionToken" }?.value)
    }

    @Test(arguments: DatabaseDriver.all)
    func anEmbeddedOrderVerifiesItsUserThenPaysAndTheTokenSkipsVerificationNextTime(driver: DatabaseDriver) throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, settlementDelay: 0.05, driver: driver)
        let headless = Headless()
        let created = try headless.post(server, Self.orders, Self.embeddedBody())
        #expect(created.status == 201, "\(created.body)")
        #expect(created.body["order"]?["status"] == "ONRAMP_ORDER_STATUS_PENDING_AUTH")
        #expect(created.body["paymentLink"]?["paymentLinkType"] == "PAYMENT_LINK_TYPE_EMBEDDED_ORDER")
        #expect(created.body["userAuthToken"] == nil, "not before the user is verified")
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        #expect(link.contains(EmbeddedOrderPage.path))
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue)
        let token = try Self.token(of: link)
        func status() throws -> String? {
            try headless.get(server, "\(Self.orders)/\(orderId)").body["order"]?["status"]?.stringValue
        }

        let page = try RawHTTPClient(port: server.port).request(
            "GET", "\(EmbeddedOrderPage.path)?sessionToken=\(token)")
        #expect(
            page.status == 200 && page.text.contains("id=\"contact-form\"") && !page.text.contains("id=\"code-form\""))
        let contact = [
            ("sessionToken", token), ("action", "contact"), ("phoneNumber", Headless.phone),
            ("email", "ada@example.com"),
        ]
        let unaccepted = try Self.submit(server, contact)
        #expect(unaccepted.status == 400 && unaccepted.text.contains("Accept the terms"))
        #expect(try status() == "ONRAMP_ORDER_STATUS_PENDING_AUTH")
        let sent = try Self.submit(server, contact + [("agreement", "accepted")])
        #expect(sent.status == 200 && sent.text.contains("id=\"code-form\""), "\(sent.text)")
        #expect(try status() == "ONRAMP_ORDER_STATUS_PENDING_VERIFICATION")
        let wrong = try Self.submit(server, [("sessionToken", token), ("action", "verify"), ("code", "123456")])
        #expect(wrong.status == 400)
        #expect(try status() == "ONRAMP_ORDER_STATUS_PENDING_VERIFICATION")
        let verified = try Self.submit(server, [("sessionToken", token), ("action", "verify"), ("code", "000000")])
        #expect(
            verified.status == 303 && verified.headers["location"] == "/v2/api-onramp/apple-pay?sessionToken=\(token)")
        let read = try headless.get(server, "\(Self.orders)/\(orderId)")
        #expect(read.body["order"]?["status"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT")
        let userToken = try #require(read.body["userAuthToken"]?.stringValue)
        let stored = try server.database.read {
            try $0.query("SELECT token_hash FROM onramp_user_auth_tokens", []).map { try $0.string("token_hash") }
        }
        #expect(stored.count == 1 && !stored.contains(userToken), "kept as a hash")

        let paid = try Headless.pay(
            server, link: "http://127.0.0.1:\(server.port)/v2/api-onramp/apple-pay?sessionToken=\(token)",
            action: "approve")
        #expect(paid.status == 200, "\(paid.text)")
        clock.advance(by: 5)  // the settlement's steps come due in the (manual) time
        #expect(try headless.waitForStatus(server, orderId, "ONRAMP_ORDER_STATUS_COMPLETED") != nil)
        let types = try server.database.read {
            try $0.query("SELECT type FROM outbox_events", []).map { try $0.string("type") }
        }
        #expect(
            Set(types) == ["onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success"])

        // The next order to the same wallet, with the token: straight to payment, its page the button page.
        let again = try headless.post(server, Self.orders, Self.embeddedBody([("userAuthToken", .string(userToken))]))
        #expect(
            again.status == 201 && again.body["order"]?["status"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT",
            "\(again.body)")
        #expect(again.body["userAuthToken"]?.stringValue == userToken)
        let againLink = try #require(again.body["paymentLink"]?["url"]?.stringValue)
        let opened = try RawHTTPClient(port: server.port).request(
            "GET", "\(EmbeddedOrderPage.path)?sessionToken=\(try Self.token(of: againLink))")
        #expect(opened.status == 303)
        // Another wallet verifies again.
        let elsewhere = try headless.post(
            server, Self.orders,
            Self.embeddedBody([
                ("userAuthToken", .string(userToken)),
                ("destinationAddress", "0x1111111111111111111111111111111111111111"),
            ]))
        #expect(elsewhere.body["order"]?["status"] == "ONRAMP_ORDER_STATUS_PENDING_AUTH", "\(elsewhere.body)")

        // A forged token, another partner user's, another project's, and an expired one: CDP's error shape,
        // nothing written.
        let count = try server.count("SELECT COUNT(*) AS n FROM onramp_orders")
        for body in [
            Self.embeddedBody([("userAuthToken", "forged-token")]),
            Self.embeddedBody([("userAuthToken", .string(userToken)), ("partnerUserRef", "guest-2")]),
        ] {
            let refused = try headless.post(server, Self.orders, body)
            #expect(refused.status == 400 && refused.body["errorType"] == "invalid_request", "\(refused.body)")
        }
        let other = try ProjectProvisioner(database: server.database, clock: clock).createProject(
            name: "Other wallet", appIds: [], redirectHosts: [], keyType: .es256)
        let key = try CDPAPIKey(id: other.cdpApiKeyId, secret: other.cdpApiKeySecret)
        let jwt = try key.jwt(method: "POST", host: "127.0.0.1:\(server.port)", path: Self.orders, at: clock.now())
        let foreign = try server.request(
            "POST", Self.orders, json: Self.embeddedBody([("userAuthToken", .string(userToken))]),
            headers: [("Authorization", "Bearer \(jwt)")])
        #expect(foreign.status == 400 && foreign.body["errorType"] == "invalid_request")
        clock.advance(by: 61 * 86_400)
        let expired = try headless.post(server, Self.orders, Self.embeddedBody([("userAuthToken", .string(userToken))]))
        #expect(expired.status == 400, "60 days: \(expired.body)")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_orders") == count)
    }

    /// The embedded order in headless Chromium, as a user in Coinbase's webview: contact form, code, the
    /// wallet's button page and its sheet, to a settled order whose signed webhooks the demo's own algorithm
    /// verifies; then the verified user's next order skips straight to the button page. Screenshots are kept
    /// in `artifacts/`.
    @Test func chromiumTakesAnEmbeddedOrderFromContactToSettled() async throws {
        let server = try TestServer(settlementDelay: 0.05)
        let receiver = try WebhookReceiver()
        let headless = Headless()
        let subscription = try headless.post(
            server, "/platform/v2/data/webhooks/subscriptions",
            [
                "eventTypes": [
                    "onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success",
                ],
                "isEnabled": true, "target": ["url": .string(receiver.url)],
            ])
        let secret = try #require(subscription.body["secret"]?.stringValue)
        let created = try headless.post(server, Self.orders, Self.embeddedBody())
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue)
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let prefix = artifacts.appendingPathComponent("embedded-order").path
        let output = try await Python.run("embedded_order_browser.py", [link, Headless.phone, prefix])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(
            result["steps"]
                == [
                    "ONRAMP_ORDER_STATUS_PENDING_AUTH", "ONRAMP_ORDER_STATUS_PENDING_VERIFICATION",
                    "ONRAMP_ORDER_STATUS_PENDING_PAYMENT",
                ], "\(result)")
        #expect(result["events"]?.arrayValue?.last == "onramp_api.polling_success")
        #expect(FileManager.default.fileExists(atPath: "\(prefix)-done.png"))
        #expect(try headless.waitForStatus(server, orderId, "ONRAMP_ORDER_STATUS_COMPLETED") != nil)
        #expect(
            await receiver.wait(timeout: 30) { deliveries in
                deliveries.contains { (try? JSONParser().parse($0.body))?["eventType"] == "onramp.transaction.success" }
            })
        // The demo backend's own check (`verifyWebhookSignature.ts`, ported in demo_backend.py) accepts each one.
        let (verified, results) = try await DemoBackendVerifier.verify(
            receiver.deliveries, secret: secret, in: server.directory)
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(!results.isEmpty && results.allSatisfy { $0["ok"] == true && $0["txId"] == .string(orderId) })

        let token = try #require(
            try headless.get(server, "\(Self.orders)/\(orderId)").body["userAuthToken"]?.stringValue)
        let next = try headless.post(server, Self.orders, Self.embeddedBody([("userAuthToken", .string(token))]))
        #expect(next.body["order"]?["status"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT", "\(next.body)")
    }
}

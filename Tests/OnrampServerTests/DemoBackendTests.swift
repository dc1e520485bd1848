import Foundation
import HTTPServer
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// Coinbase's onramp-v2-mobile-demo backend (`server/src/app.ts` at 46ef643), rewritten in
/// `Tests/python/demo_backend.py` from its source: its whole request set against our server, answered as
/// the demo reads it, and its own webhook signature check (`verifyWebhookSignature.ts`) over our order
/// and App2App deliveries.
@Suite(.serialized, .blocking) struct DemoBackendTests {
    @Test func theDemoBackendsRequestSetIsAnsweredAsItExpects() async throws {
        let server = try TestServer(transport: .live)
        try ProjectProvisioner(database: server.database).addRedirectHost("onrampdemo://", projectId: server.projectId)
        let output = try await Python.run(
            "demo_backend.py", ["replay", "http://127.0.0.1:\(server.port)"],
            environment: [
                "CDP_API_KEY_ID": server.credentials.cdpApiKeyId,
                "CDP_API_KEY_SECRET": server.credentials.cdpApiKeySecret,
            ])
        #expect(output.status == 0, "\(output.standardError)")
        let calls = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        func call(_ name: String, status: Int, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
            #expect(
                calls[name]?["status"] == .number(String(status)), "\(name): \(calls[name] ?? .null)",
                sourceLocation: sourceLocation)
            return calls[name]?["body"]
        }
        #expect(call("config", status: 200)?["countries"]?.arrayValue?.first?["id"] != nil)
        #expect(call("options", status: 200)?["payment_currencies"]?.arrayValue?.isEmpty == false)
        let session = call("session", status: 201)
        #expect(session?["session"]?["onrampUrl"]?.stringValue?.contains("/buy/select-asset?sessionToken=") == true)
        #expect(session?["quote"] == nil, "the widget sends no paymentMethod, so the session is not priced")
        #expect(call("token", status: 200)?["token"]?.stringValue?.isEmpty == false)
        let quote = call("quote", status: 201)
        #expect(quote?["order"]?["paymentTotal"] == "25.00")
        #expect(quote?["paymentLink"] == nil)
        let order = call("order", status: 201)
        #expect(order?["order"]?["orderId"]?.stringValue?.count == 36)
        #expect(order?["paymentLink"]?["url"]?.stringValue?.contains("/v2/api-onramp/apple-pay?sessionToken=") == true)
        let limits = call("limits", status: 200)?["limits"]?.arrayValue ?? []
        #expect(limits.map { $0["limitType"]?.stringValue ?? "" } == ["weekly_spending", "lifetime_transactions"])
        #expect(limits.first?["remaining"] == "475.00")
        let transactions = call("transactions", status: 200)
        #expect(transactions?["transactions"] == .array([]))
        #expect(transactions?["next_page_key"] == "")
        let sells = call("offrampTransactions", status: 200)
        #expect(sells?["transactions"] == .array([]), "no sell yet: the demo retries until one appears")
    }

    @Test func theDemosSignatureCheckVerifiesOrderAndApp2AppDeliveries() async throws {
        let server = try TestServer(settlementDelay: 0.05, transport: .live)
        let receiver = try WebhookReceiver()
        let path = "/platform/v2/data/webhooks/subscriptions"
        let subscription = try server.request(
            "POST", path,
            json: [
                "eventTypes": ["onramp.transaction.success"], "isEnabled": true,
                "target": ["url": .string(receiver.url)],
            ],
            headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        let secret = try #require(subscription.body["secret"]?.stringValue)

        // An order paid on its page, and an App2App purchase through the handoff.
        let ordersPath = "/platform/v2/onramp/orders"
        let created = try server.request(
            "POST", ordersPath, json: HeadlessOnrampTests.orderBody(),
            headers: [("Authorization", "Bearer \(try server.jwt("POST", ordersPath))")])
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        _ = try HeadlessOnrampTests.pay(server, link: link, action: "approve")
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        #expect(await receiver.wait { $0.count >= 2 })

        let (output, results) = try await DemoBackendVerifier.verify(
            receiver.deliveries, secret: secret, in: server.directory)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(results.count == 2)
        #expect(results.allSatisfy { $0["ok"] == true && $0["eventType"] == "onramp.transaction.success" })
        #expect(results.allSatisfy { $0["amount"] == "24.36" && $0["network"] == "base" })
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue)
        #expect(results.contains { $0["txId"] == .string(orderId) && $0["partnerUserRef"] == "guest-1" })
        #expect(results.contains { $0["txId"] != .string(orderId) && $0["partnerUserRef"] == "user-1" })
        // A delivery altered on the way fails the demo's check.
        var tampered = receiver.deliveries[0]
        tampered = WebhookReceiver.Delivery(
            path: tampered.path, headers: tampered.headers,
            body: Array(tampered.text.replacingOccurrences(of: "24.36", with: "99.99").utf8))
        let refused = try await DemoBackendVerifier.verify([tampered], secret: secret, in: server.directory)
        #expect(refused.output.standardOutput.contains(#""ok": false"#))
    }
}

import Foundation
import OnrampCrypto
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

@Suite("Webhook signatures", .blocking)
struct WebhookSignatureTests {
    @Test func stripeSignatureMatchesTheContractVector() {
        let body = Array(#"{"id":"evt_1","object":"event","type":"crypto.onramp_session.updated"}"#.utf8)
        #expect(
            WebhookSigner.stripeSignature(secret: "whsec_test_secret", timestamp: 1_700_000_000, body: body)
                == "f081a3f0cef1b4b04600c88ea4723a34994c5c720406d7b954e9a1139e178a30")
    }

    @Test func cdpHeadersNameTheSignedHeadersInOrder() {
        let headers = WebhookSigner.headers(
            family: .cdp, secret: "s", eventId: "e1", eventType: "onramp.transaction.success", body: Array("{}".utf8),
            timestamp: 1_700_000_000)
        let signature = headers.first { $0.0 == "X-Hook0-Signature" }?.1 ?? ""
        #expect(signature.hasPrefix("t=1700000000,h=content-type x-event-id x-event-type,v1="))
        #expect(signature.contains(",v0="))
        #expect(headers.contains { $0 == ("X-Event-Id", "e1") })
        #expect(headers.contains { $0 == ("X-Event-Type", "onramp.transaction.success") })
    }

    /// Real deliveries to a real port, checked by the official `stripe` package and by Python's `hmac`.
    @Test(arguments: DatabaseDriver.all)
    func deliveriesVerifyWithIndependentCheckers(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver()
            let stripe = try fixture.subscribe(.stripe, url: receiver.url)
            let cdp = try fixture.subscribe(.cdp, url: receiver.url, eventTypes: ["onramp.transaction.success"])
            let stripeEvent = try fixture.emitStripeEvent()
            let cdpEvent = try fixture.emitCDPEvent()
            try fixture.emitCDPEvent(type: "onramp.transaction.created")  // not subscribed
            let dispatcher = WebhookDispatcher(context: fixture.context)
            while try dispatcher.step() > 0 {}

            let deliveries = receiver.deliveries
            #expect(deliveries.count == 2)
            let items = deliveries.map { delivery in
                delivery.headers["stripe-signature"] != nil
                    ? (scheme: "stripe", secret: stripe.secret, delivery: delivery)
                    : (scheme: "cdp", secret: cdp.secret, delivery: delivery)
            }
            let results = try PythonVerifier.verify(items)
            #expect(results.count == 2)
            for result in results { #expect(result.ok, "\(result.error ?? "")") }
            #expect(Set(results.compactMap(\.id)) == [stripeEvent, cdpEvent])

            // A tampered body or a wrong secret is refused by the same checkers.
            let tampered = items.map { item in
                (
                    scheme: item.scheme, secret: item.secret,
                    delivery: WebhookReceiver.Delivery(
                        path: item.delivery.path, headers: item.delivery.headers,
                        body: item.delivery.body + Array(" ".utf8))
                )
            }
            let wrongSecret = items.map { (scheme: $0.scheme, secret: $0.secret + "x", delivery: $0.delivery) }
            for result in try PythonVerifier.verify(tampered + wrongSecret) { #expect(!result.ok) }

            #expect(try fixture.deliveries(of: stripeEvent).map(\.status) == ["succeeded"])
            #expect(try fixture.deliveries(of: cdpEvent).map(\.status) == ["succeeded"])
        }
    }
}

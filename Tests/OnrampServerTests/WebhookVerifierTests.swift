import Foundation
import OnrampBackend
import OnrampClient
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

@Suite("WebhookVerifier", .blocking)
struct WebhookVerifierTests {
    let vectorBody = Array(#"{"id":"evt_1","object":"event","type":"crypto.onramp_session.updated"}"#.utf8)
    let vectorSignature = "f081a3f0cef1b4b04600c88ea4723a34994c5c720406d7b954e9a1139e178a30"
    let vectorTime = Date(timeIntervalSince1970: 1_700_000_000)

    func code(_ body: () throws -> Void) -> WebhookVerificationError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? WebhookVerificationError)?.code
        }
    }

    @Test func contractVectorPassesTheSignatureCheck() {
        let verifier = WebhookVerifier(secret: "whsec_test_secret")
        // The vector's body has no `data`, so passing the signature check ends in `invalidPayload`.
        #expect(
            code {
                _ = try verifier.verifyStripe(
                    payload: vectorBody, signatureHeader: "t=1700000000,v1=\(vectorSignature)", now: vectorTime)
            } == .invalidPayload)
        #expect(
            code {
                _ = try verifier.verifyStripe(
                    payload: vectorBody,
                    signatureHeader: "t=1700000000,v1=\(String(repeating: "0", count: 64)),v1=\(vectorSignature)",
                    now: vectorTime.addingTimeInterval(299))
            } == .invalidPayload, "any v1 may match")
        #expect(
            code {
                _ = try verifier.verifyStripe(
                    payload: vectorBody, signatureHeader: "t=1700000000,v1=\(vectorSignature)",
                    now: vectorTime.addingTimeInterval(301))
            } == .timestampOutsideTolerance)
        #expect(
            code {
                _ = try verifier.verifyStripe(
                    payload: vectorBody + [0x20], signatureHeader: "t=1700000000,v1=\(vectorSignature)", now: vectorTime
                )
            } == .signatureMismatch)
        #expect(code { _ = try verifier.verifyStripe(payload: vectorBody, signatureHeader: nil) } == .missingHeader)
        #expect(
            code { _ = try verifier.verifyStripe(payload: vectorBody, signatureHeader: "v1=abc") } == .malformedHeader)
    }

    /// Deliveries made by the server decode into typed events on the partner side.
    @Test func serverDeliveriesVerifyAndDecode() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver()
            let stripe = try fixture.subscribe(.stripe, url: receiver.url)
            let cdp = try fixture.subscribe(.cdp, url: receiver.url)
            let stripeId = try fixture.emitStripeEvent()
            let cdpId = try fixture.emitCDPEvent()
            while try WebhookDispatcher(context: fixture.context).step() > 0 {}
            let stripeDelivery = try #require(receiver.deliveries.first { $0.headers["stripe-signature"] != nil })
            let cdpDelivery = try #require(receiver.deliveries.first { $0.headers["x-hook0-signature"] != nil })

            let event = try WebhookVerifier(secret: stripe.secret).verifyStripe(
                payload: stripeDelivery.body, signatureHeader: stripeDelivery.headers["stripe-signature"])
            #expect(event.id == stripeId)
            #expect(event.object.status == "fulfillment_complete")

            let transaction = try WebhookVerifier(secret: cdp.secret).verifyCDP(
                payload: cdpDelivery.body, headers: cdpDelivery.headers)
            #expect(transaction.isSettled)
            #expect(cdpDelivery.headers["x-event-id"] == cdpId)

            var forged = cdpDelivery.headers
            forged["x-event-type"] = "onramp.transaction.failed"
            #expect(
                code {
                    _ = try WebhookVerifier(secret: cdp.secret).verifyCDP(payload: cdpDelivery.body, headers: forged)
                }
                    == .signatureMismatch, "the signature covers the event type header")
            forged.removeValue(forKey: "x-event-id")
            #expect(
                code {
                    _ = try WebhookVerifier(secret: cdp.secret).verifyCDP(payload: cdpDelivery.body, headers: forged)
                }
                    == .missingHeader)
        }
    }
}

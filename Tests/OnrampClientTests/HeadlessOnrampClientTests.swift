import Foundation
import OnrampBackend
import OnrampClient
import OnrampCrypto
import OnrampTestSupport
import PartnerBackendKit
import Testing

/// The partner backend's Headless Onramp client against a real server: verify the user's phone, check
/// the limits, order, the user pays on the payment-button page, and the example backend's ledger credits
/// the settled order once, from its verified order-form webhook (never from the page).
@Suite(.serialized) struct HeadlessOnrampClientTests {
    @Test func anOrderPaidOnItsPageIsCreditedOnceFromItsWebhook() async throws {
        let sandbox = try await SandboxServer(settlementDelay: 0.05)
        let client = HeadlessOnrampClient(
            baseURL: sandbox.rootURL.appendingPathComponent("platform"),
            apiKey: try CDPAPIKey(id: sandbox.credentials.cdpApiKeyId, secret: sandbox.credentials.cdpApiKeySecret))
        let phone = "+14155550142"
        let started = try await client.startVerification(channel: "sms", destination: phone)
        #expect(started.otpExpiresAt != nil)
        let verified = try await client.submitVerification(id: started.verificationId, code: "000000")
        #expect(verified.verificationExpiresAt != nil)
        #expect(
            try await client.limits(phoneNumber: phone).first { $0.limitType == "weekly_spending" }?.remaining
                == "500.00")
        let now = ISO8601DateFormatter().string(from: Date())
        let request = GuestCheckoutOrderRequest(
            purchaseCurrency: "USDC", destinationNetwork: "base",
            destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7", paymentAmount: "25.00",
            partnerUserRef: "guest-ada", phoneNumber: phone, email: "ada@example.com",
            smsVerificationId: verified.verificationId, agreementAcceptedAt: now)
        let created = try await client.createOrder(request)
        let link = try #require(created.paymentLink)
        #expect(created.order.status == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT")

        // The user pays on the page (its form, as a browser without JavaScript posts it).
        let url = try #require(URLComponents(string: link.url))
        let token = try #require(url.queryItems?.first { $0.name == "sessionToken" }?.value)
        let paid = try RawHTTPClient(port: sandbox.port).request(
            "POST", url.path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("sessionToken=\(token)&action=approve".utf8))
        #expect(paid.status == 200)
        #expect(sandbox.ledger.credits.isEmpty, "paying on the page credits nothing")

        var order = try await client.order(id: created.order.orderId)
        for _ in 0..<1500 where !order.isCompleted {
            try await Task.sleep(for: .milliseconds(20))
            order = try await client.order(id: created.order.orderId)
        }
        #expect(order.isCompleted)
        for _ in 0..<1500 where sandbox.ledger.credits.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let credits = sandbox.ledger.credits(for: "guest-ada")
        #expect(credits.count == 1)
        #expect(credits.first?.amount == "24.36")
        #expect(credits.first?.currency == "USDC")
        #expect(credits.first?.txHash == order.txHash)
        // Every event of the order reached the backend, verified; only the success credited.
        try await Task.sleep(for: .milliseconds(300))
        #expect(sandbox.received.all.filter { $0.credit != nil }.count == 1)
        #expect(sandbox.received.all.count >= 4)

        // A refused order is a typed error with the API's errorType.
        var abroad = request
        abroad.phoneNumber = "+447700900123"
        abroad.smsVerificationId = nil
        abroad.phoneNumberVerifiedAt = now
        await #expect(throws: HeadlessOnrampError.self) { try await client.createOrder(abroad) }
        do {
            _ = try await client.createOrder(abroad)
        } catch let error as HeadlessOnrampError {
            #expect(error.errorType == "guest_region_forbidden")
            #expect(error.status == 400)
        }
    }
}

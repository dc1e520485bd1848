import Foundation
import OnrampTestSupport
import OnrampWire
import Testing

/// The official `stripe` Python package (`.venv`, see `scripts/install-deps.sh test`) drives the
/// server-side API against a real port and parses our errors into its own error classes.
@Suite(.serialized) struct EmbeddedStripePythonTests {
    static let ready = FileManager.default.isExecutableFile(atPath: Python.interpreter.path)

    @Test(.enabled(if: ready, "needs .venv with stripe==16.1.0"))
    func officialStripeClientDrivesTheServerSideAPI() async throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let output = try await Python.run(
            "embedded_stripe_client.py", [],
            environment: [
                "ONRAMP_BASE": server.baseURL, "ONRAMP_SK": server.credentials.stripeSecretKey,
                "ONRAMP_PK": server.credentials.stripePublishableKey, "ONRAMP_ACCESS_TOKEN": user.accessToken,
                "ONRAMP_CUSTOMER": user.customerId, "ONRAMP_PAYMENT_TOKEN": token, "ONRAMP_WALLET": wallet,
            ])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("card error code"), "\(output.standardOutput)")
    }

    /// A deposit address made with the official package's `raw_request`, a simulated deposit capturing its
    /// PaymentIntent, and the `payment_intent.succeeded` delivery verified with `stripe.Webhook.construct_event`.
    @Test(.enabled(if: ready, "needs .venv with stripe==16.1.0"))
    func officialStripeClientSettlesADepositAndVerifiesItsWebhook() async throws {
        let server = try EmbeddedTestServer(transport: .live)
        let receiver = try WebhookReceiver()
        let output = try await Python.run(
            "deposit_address_webhook.py", [],
            environment: [
                "ONRAMP_BASE": server.baseURL, "ONRAMP_SK": server.credentials.stripeSecretKey,
                "ONRAMP_HOOK": receiver.url,
            ])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let secret = try #require(result["secret"]?.stringValue)
        let intent = try #require(result["intent"]?.stringValue)
        #expect(
            await receiver.wait(timeout: 30) { !$0.isEmpty }, "the deposit's event is delivered")
        let delivery = try #require(receiver.deliveries.first)
        let event = try JSONParser().parse(delivery.body)
        #expect(event["type"] == "payment_intent.succeeded" && event["data"]?["object"]?["id"] == .string(intent))
        #expect(event["data"]?["object"]?["amount"] == 1234, "\(event)")
        let verified = try PythonVerifier.verify([(scheme: "stripe", secret: secret, delivery: delivery)])
        #expect(verified.map(\.ok) == [true] && verified.first?.id == event["id"]?.stringValue, "\(verified)")
    }
}

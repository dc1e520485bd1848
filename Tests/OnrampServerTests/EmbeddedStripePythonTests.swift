import Foundation
import OnrampTestSupport
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
}

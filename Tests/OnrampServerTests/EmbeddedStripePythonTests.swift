import Foundation
import OnrampTestSupport
import Testing

/// The official `stripe` Python package (`.venv`, see `scripts/install-deps.sh test`) drives the
/// server-side API against a real port and parses our errors into its own error classes.
@Suite(.serialized) struct EmbeddedStripePythonTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv/bin/python").path

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python), "needs .venv with stripe==16.1.0"))
    func officialStripeClientDrivesTheServerSideAPI() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.root.appendingPathComponent("Tests/python/embedded_stripe_client.py").path]
        process.environment = [
            "ONRAMP_BASE": server.baseURL, "ONRAMP_SK": server.credentials.stripeSecretKey,
            "ONRAMP_PK": server.credentials.stripePublishableKey, "ONRAMP_ACCESS_TOKEN": user.accessToken,
            "ONRAMP_CUSTOMER": user.customerId, "ONRAMP_PAYMENT_TOKEN": token, "ONRAMP_WALLET": wallet,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stdout)\n\(stderr)")
        #expect(stdout.contains("card error code"), "\(stdout)")
    }
}

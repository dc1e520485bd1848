import Foundation
import OnrampTestSupport
import Testing

/// The test-mode hosted pages (OTP and consent, 3-D Secure, identity) in headless Chromium through
/// selenium; screenshots land in `artifacts/` and the server state is checked afterwards.
@Suite(.serialized) struct EmbeddedHostedPagesBrowserTests {
    static let ready =
        EmbeddedStripePythonTests.ready && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")

    @Test(.enabled(if: ready, "needs .venv with selenium, chromium and chromium-driver"))
    func hostedPagesWorkInHeadlessChromium() async throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user, firstName: "Challenge")
        let intent = try server.backend.postJSON(
            "/v1/link_auth_intent",
            ["email": user.email, "oauth_client_id": server.credentials.oauthClientId, "oauth_scopes": "crypto:ramp"])
        let intentId = intent.string("id")
        let identity = try server.sdk.post("/v1/crypto/internal/start_identity_verification", [user.credentials])
        let wallet = try server.registerWallet(user)
        let other = try server.signUpAndAuthorize()
        try server.collectKYC(other)
        let otherWallet = try server.registerWallet(other)
        let session = try server.createSession(
            other, token: try server.paymentToken(other, card: "4000000000003220"), wallet: otherWallet)
        let challenge = try server.checkout(other, session.string("id")).string("next_action.redirect_to_url.url")

        let output = try await Python.run(
            "embedded_pages_browser.py", [],
            environment: [
                "ONRAMP_OTP_URL": "\(server.baseURL)/embedded/test/link/authorize?link_auth_intent=\(intentId)",
                "ONRAMP_3DS_URL": challenge, "ONRAMP_IDENTITY_URL": identity.string("url"),
                "ONRAMP_ARTIFACTS": Python.repositoryRoot.appendingPathComponent("artifacts").path,
            ])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")

        let tokens = try server.backend.post("/v1/link_auth_intent/\(intentId)/tokens")
        #expect(tokens.status == 200, "\(tokens)")
        let paid = try server.checkout(other, session.string("id"))
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        let retried = try server.createSession(user, token: try server.paymentToken(user), wallet: wallet)
        #expect(retried.status == 200, "\(retried)")
    }
}

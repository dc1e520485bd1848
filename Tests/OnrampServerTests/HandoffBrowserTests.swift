import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire
import Testing

/// The hosted handoff page in a real headless Chromium: the user sees the purchase, presses
/// Confirm or Cancel, and the browser lands on the partner's redirect URL; and the hosted onramp
/// page, where the user picks, previews and confirms. Screenshots are kept in `artifacts/`.
@Suite(.serialized) struct HandoffBrowserTests {
    @Test(arguments: [("Confirm", "success"), ("Cancel", "cancelled")])
    func chromiumCompletesTheHandoff(button: String, status: String) async throws {
        let server = try TestServer(transport: .live)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("handoff-\(status).png")
        try? FileManager.default.removeItem(at: screenshot)
        let output = try await Python.run("handoff_browser.py", [url, button, screenshot.path])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["title"] == "Confirm your purchase")
        #expect(result["heading"]?.stringValue?.hasPrefix("Buy 24.36 USDC") == true)
        let redirect = try #require(result["redirect"]?.stringValue)
        #expect(redirect.hasPrefix("https://\(TestServer.redirectHost)/onramp-return?status=\(status)"))
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }

    @Test func chromiumBuysOnTheHostedOnrampPage() async throws {
        let server = try TestServer(transport: .live)
        let path = "/onramp/v1/token"
        let created = try server.request(
            "POST", path,
            json: [
                "addresses": [
                    ["address": "0x52908400098527886E0F7030069857D2E4169EE7", "blockchains": ["base", "ethereum"]]
                ],
                "assets": ["USDC", "ETH"],
            ], headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        let token = try #require(created.body["token"]?.stringValue)
        let redirect = PercentEncoding.encode("https://\(TestServer.redirectHost)/back")
        let url =
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(token)&partnerUserId=browser-user"
            + "&redirectUrl=\(redirect)"
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let prefix = artifacts.appendingPathComponent("hosted-onramp").path
        let output = try await Python.run(
            "hosted_onramp_browser.py", [url, "USDC on Base to 0x5290…169EE7", "25.00", prefix])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["selectTitle"] == "Buy crypto")
        #expect(result["previewHeading"] == "Buy 24.36 USDC")
        #expect(
            result["redirect"]
                == .string("https://\(TestServer.redirectHost)/back?status=success&partnerUserRef=browser-user"))
        #expect(FileManager.default.fileExists(atPath: prefix + "-preview.png"))
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions WHERE is_app_to_app = 0") == 1)
    }
}

import Foundation
import HTTPServer
import OnrampTestSupport
import Testing

/// The hosted handoff page in a real headless Chromium: the user sees the purchase, presses
/// Confirm or Cancel, and the browser lands on the partner's redirect URL. Screenshots are kept in
/// `artifacts/`.
@Suite(.serialized) struct HandoffBrowserTests {
    @Test(arguments: [("Confirm", "success"), ("Cancel", "cancelled")])
    func chromiumCompletesTheHandoff(button: String, status: String) throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        _ = try device.register()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("handoff-\(status).png")
        try? FileManager.default.removeItem(at: screenshot)
        let output = try Python.run("handoff_browser.py", [url, button, screenshot.path])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["title"] == "Confirm your purchase")
        #expect(result["heading"]?.stringValue?.hasPrefix("Buy 24.36 USDC") == true)
        let redirect = try #require(result["redirect"]?.stringValue)
        #expect(redirect.hasPrefix("https://\(TestServer.redirectHost)/onramp-return?status=\(status)"))
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }
}

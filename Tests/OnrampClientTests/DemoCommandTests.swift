import Foundation
import Testing

/// `onramp demo` as a user runs it: the built binary exits 0 and prints every step of both purchases.
struct DemoCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func demoRunsBothPurchasesAndExitsZero() throws {
        let process = Process()
        process.executableURL = Self.packageRoot.appendingPathComponent(".build/debug/onramp")
        process.arguments = ["demo"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        for expected in [
            "redirect status=success", "nothing credited (ledger: 0 credits)", "webhook onramp.transaction.success",
            "ledger: credited 24.36 USDC to demo-user-app2app", "already credited, ignored",
            "clientSecretProvider → backend checkout", "webhook crypto.onramp_session.updated",
            "credited 50.000000 usdc to demo-user-embedded", "both purchases settled and credited once",
        ] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        #expect(text.contains(", tx 0x"))
    }
}

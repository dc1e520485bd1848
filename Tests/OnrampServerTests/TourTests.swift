import Foundation
import OnrampTestSupport
import Testing

/// The README's tour, run as a reader pastes it (`scripts/tour.sh`: its `<!-- tour -->` blocks in one shell
/// against a fresh `onramp serve`): it reaches a settled App2App purchase and a fulfilled Embedded onramp
/// session, so the README cannot drift from what works.
@Suite(.serialized, .blocking) struct TourTests {
    @Test func theReadmesTourReachesASettledPurchaseOfEachFamily() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Python.repositoryRoot.appendingPathComponent("scripts/tour.sh").path]
        var environment = ProcessInfo.processInfo.environment
        environment["ONRAMP"] = Python.onrampBinary.path
        environment["ONRAMP_CONSOLE_TOKEN"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("tour.sh: every tour block ran"), "\(printed)")
        #expect(printed.contains("/onramp-return?status=success&transactionId="), "the redirect: \(printed)")
        #expect(printed.contains("ONRAMP_TRANSACTION_STATUS_SUCCESS"), "settled: \(printed)")
        #expect(printed.contains("onramp.transaction.success"), "its webhook event: \(printed)")
        #expect(printed.contains(#""object":"crypto.onramp_quotes""#), "the Embedded quote: \(printed)")
        #expect(
            printed.contains(try Regex(#"cos_\w+ fulfillment_complete"#)), "the Embedded session settled: \(printed)")
    }
}

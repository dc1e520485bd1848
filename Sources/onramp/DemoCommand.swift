import Dispatch
import Foundation
import PartnerBackendKit

/// `onramp demo`: runs an App2App purchase and an Embedded Components purchase end to end against an
/// in-process sandbox, with the client SDKs and the example partner backend, printing each step.
enum DemoCommand {
    static let usage = """
        Usage: onramp demo

        Starts the onramp server on a free port over a temporary SQLite database, creates a project,
        and runs both purchases end to end with App2AppClient, CryptoOnrampCoordinator and the example
        partner backend (webhook receiver and ledger). Exits 0 when both purchases were credited.
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        guard arguments.isEmpty else {
            printError("onramp demo: unexpected argument \(arguments[0])\n\n\(usage)")
            return 64
        }
        // The coordinator is main-actor bound: run on the main queue and exit from there.
        Task { @MainActor in
            exit(await runDemo())
        }
        dispatchMain()
    }

    @MainActor private static func runDemo() async -> Int32 {
        say("onramp demo: an App2App and an Embedded Components purchase, end to end")
        let sandbox: DemoSandbox
        do {
            sandbox = try DemoSandbox(settlementDelay: 1, onWebhook: report)
        } catch {
            printError("onramp demo: could not start the sandbox: \(error)")
            return 1
        }
        defer { sandbox.shutdown() }
        do {
            say("[setup] onramp server on \(sandbox.rootURL.absoluteString) (temporary SQLite, test App Attest CA)")
            say("[setup] project \(sandbox.credentials.projectId) for \(DemoSandbox.appId)")
            try await App2AppDemo(sandbox: sandbox).run()
            try await EmbeddedDemo(sandbox: sandbox).run()
            say("")
            say("ledger:")
            for credit in sandbox.ledger.credits {
                say("  \(credit.userRef): +\(credit.amount) \(credit.currency) (event \(credit.eventId))")
            }
            say("onramp demo: both purchases settled and credited once")
            return 0
        } catch {
            printError("onramp demo: failed: \(error)")
            return 1
        }
    }

    /// Prints a webhook as the partner backend receives it.
    @Sendable static func report(_ received: ReceivedWebhook) {
        var line = "  ↳ webhook \(received.type) \(received.eventId) (\(received.scheme.rawValue), signature verified)"
        if let credit = received.credit {
            line += "\n  ↳ ledger: credited \(credit.amount) \(credit.currency) to \(credit.userRef)"
        } else if received.duplicate {
            line += ": already credited, ignored"
        }
        say(line)
    }

    /// Prints a progress line immediately.
    @Sendable static func say(_ line: String) {
        print(line)
        fflush(nil)
    }
}

import AppAttest
import Dispatch
import Foundation
import OnrampRuntime
import PartnerBackendKit

/// `onramp demo`: runs an App2App purchase and an Embedded Components purchase end to end with the client SDKs
/// and the example partner backend, printing each step: against a server of its own, or with `--server`
/// against one already running, whose console then shows what the demo made.
enum DemoCommand {
    static let usage = """
        Usage: onramp demo [--server URL [--console-token TOKEN] --ca DIR]

        Without --server: starts the onramp server on a free port over a temporary SQLite database, creates a
        project, and runs both purchases end to end with App2AppClient, CryptoOnrampCoordinator and the example
        partner backend (webhook receiver and ledger). Exits 0 when both purchases were credited.

        With --server: the same against a server already running (a new project made through its console API),
        printing the console page of each purchase. The server must trust the App Attest test CA in DIR
        (`onramp appattest ca create --out DIR`, then `serve --trust-appattest-root DIR/root.pem`).

        Options:
        \(ServerConnection.optionsUsage)
          --ca DIR              The test CA the server trusts (required with --server)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let target: Target
        do {
            let args = try Arguments(
                arguments, valueOptions: ["--server", "--console-token", "--ca"], flagOptions: ["--help", "-h"])
            guard args.positional.isEmpty, !args.flag("--help"), !args.flag("-h") else {
                print(usage)
                return args.flag("--help") || args.flag("-h") ? 0 : 64
            }
            target = try Target(args)
        } catch let error as Arguments.UsageError {
            printError("onramp demo: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp demo: \(error)")
            return 1
        }
        // The steps are the narrative; the partner backend's own request lines would interleave with them.
        AccessLog.shared.configure(enabled: false)
        // The coordinator is main-actor bound: run on the main queue and exit from there.
        Task { @MainActor in
            exit(await runDemo(target))
        }
        dispatchMain()
    }

    /// Where the demo runs: a server of its own, or a running one trusting a CA.
    enum Target {
        case ownServer
        case running(ServerConnection, TestCertificateAuthority)

        init(_ args: Arguments) throws {
            guard args.value("--server") != nil else {
                guard args.value("--ca") == nil, args.value("--console-token") == nil else {
                    throw Arguments.UsageError(description: "--ca and --console-token go with --server")
                }
                self = .ownServer
                return
            }
            guard let ca = args.value("--ca") else {
                throw Arguments.UsageError(description: "--server needs --ca DIR, the test CA the server trusts")
            }
            let directory = URL(fileURLWithPath: ca)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("root.pem").path) else {
                throw DemoFailure(
                    "no test CA in \(ca): make one with `onramp appattest ca create --out \(ca)` and start the server "
                        + "with --trust-appattest-root \(ca)/root.pem")
            }
            self = .running(try ServerConnection.from(args), try TestCertificateAuthority(directory: directory))
        }
    }

    @MainActor private static func runDemo(_ target: Target) async -> Int32 {
        say("onramp demo: an App2App and an Embedded Components purchase, end to end")
        let sandbox: DemoSandbox
        do {
            switch target {
            case .ownServer: sandbox = try DemoSandbox(settlementDelay: 1, onWebhook: report)
            case .running(let server, let authority):
                sandbox = try DemoSandbox(server: server, authority: authority, onWebhook: report)
            }
        } catch {
            printError("onramp demo: could not start the sandbox: \(error)")
            return 1
        }
        defer { sandbox.shutdown() }
        do {
            say(
                sandbox.keepsObjects
                    ? "[setup] onramp server \(sandbox.rootURL.absoluteString) (running; its console keeps what follows)"
                    : "[setup] onramp server on \(sandbox.rootURL.absoluteString) (temporary SQLite, test App Attest CA)"
            )
            say("[setup] project \(sandbox.credentials.projectId) for \(DemoSandbox.appId)")
            try await App2AppDemo(sandbox: sandbox).run()
            try await EmbeddedDemo(sandbox: sandbox).run()
            say("")
            say("ledger:")
            for credit in sandbox.ledger.credits {
                say("  \(credit.userRef): +\(credit.amount) \(credit.currency) (event \(credit.eventId))")
            }
            if sandbox.keepsObjects {
                say("console: \(sandbox.consoleLink("/console/projects/\(sandbox.credentials.projectId)"))")
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

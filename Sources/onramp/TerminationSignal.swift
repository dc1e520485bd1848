import Dispatch
import Foundation

/// Waiting for the operator to stop a long-running command. Create it before announcing that the
/// command is ready: a SIGTERM sent on that announcement then finds the signal watched, instead of
/// falling into the moment between ignoring its default action and watching it (and being lost).
final class TerminationSignal: @unchecked Sendable {
    // Set up once in init; `wait` is called once, on the command's thread.
    private let semaphore = DispatchSemaphore(value: 0)
    private var sources: [DispatchSourceSignal] = []

    /// Starts catching SIGINT and SIGTERM (no longer handled by the default action).
    init() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            let semaphore = self.semaphore
            source.setEventHandler { semaphore.signal() }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until SIGINT or SIGTERM has arrived (since init).
    func wait() {
        semaphore.wait()
        sources.forEach { $0.cancel() }
    }

    /// Blocks until SIGINT or SIGTERM arrives.
    static func wait() {
        TerminationSignal().wait()
    }
}

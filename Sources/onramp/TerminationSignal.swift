import Dispatch
import Foundation

/// Waiting for the operator to stop a long-running command.
enum TerminationSignal {
    /// Blocks until SIGINT or SIGTERM arrives (both are then handled here, not by the default action).
    static func wait() {
        let semaphore = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { semaphore.signal() }
            source.resume()
            sources.append(source)
        }
        semaphore.wait()
        sources.forEach { $0.cancel() }
    }
}

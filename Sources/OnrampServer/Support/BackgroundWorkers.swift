import Foundation
import Synchronization

/// Periodic background loops on their own threads (blocking database calls are fine there), stopped
/// together at shutdown after their current iteration.
final class BackgroundWorkers: Sendable {
    private let stopping = Mutex(false)
    private let running = Mutex(0)

    /// Runs `step` every `interval` seconds until ``stopAll()``.
    func start(name: String, interval: TimeInterval, step: @escaping @Sendable () -> Void) {
        running.withLock { $0 += 1 }
        let thread = Thread { [self] in
            while !stopping.withLock({ $0 }) {
                step()
                Thread.sleep(forTimeInterval: interval)
            }
            running.withLock { $0 -= 1 }
        }
        thread.name = name
        thread.start()
    }

    /// Asks every loop to stop and waits (up to 10 s) for them to finish.
    func stopAll() {
        stopping.withLock { $0 = true }
        let deadline = Date().addingTimeInterval(10)
        while running.withLock({ $0 }) > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }
}

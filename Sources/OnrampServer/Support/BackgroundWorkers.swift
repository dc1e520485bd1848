import Dispatch
import Foundation
import Synchronization

/// Periodic background loops on their own threads (blocking database calls are fine there), stopped
/// together at shutdown after their current iteration. A loop waiting out its interval wakes at once
/// when asked to stop, so an idle server exits immediately.
final class BackgroundWorkers: Sendable {
    private struct State {
        var stopping = false
        var running = 0
        var wakers: [DispatchSemaphore] = []
    }

    private let state = Mutex(State())

    /// Ends one loop's wait before its interval is out: each wake runs at most one more iteration at once.
    struct Waker: Sendable {
        fileprivate let semaphore = DispatchSemaphore(value: 0)

        /// Runs the loop's next iteration now (or right after the one in progress).
        func wake() { semaphore.signal() }
    }

    /// Runs `step` every `interval` seconds until ``stopAll()``, and whenever `waker` is woken.
    func start(name: String, interval: TimeInterval, waker: Waker = Waker(), step: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.running += 1
            $0.wakers.append(waker.semaphore)
        }
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopping }) {
                step()
                _ = waker.semaphore.wait(timeout: .now() + interval)
            }
            state.withLock { $0.running -= 1 }
        }
        thread.name = name
        thread.start()
    }

    /// Asks every loop to stop, wakes the ones waiting out their interval, and waits (up to 10 s) for
    /// the ones in a step to finish it.
    func stopAll() {
        let wakers = state.withLock {
            $0.stopping = true
            return $0.wakers
        }
        wakers.forEach { $0.signal() }
        let deadline = Date().addingTimeInterval(10)
        while state.withLock({ $0.running }) > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }
}

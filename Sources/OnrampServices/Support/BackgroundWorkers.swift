import Foundation
import OnrampRuntime
import OnrampStore
import Synchronization

/// Periodic background loops on their own threads (blocking database calls are fine there), stopped
/// together at shutdown after their current iteration. A loop waiting out its interval wakes at once
/// when asked to stop, so an idle server exits immediately.
package final class BackgroundWorkers: Sendable {
    private struct State {
        var stopping = false
        var running = 0
        var wakers: [Waker] = []
    }

    private let state = Mutex(State())

    /// Workers with no loop running yet.
    package init() {}

    /// Ends one loop's wait before its interval is out: wakes that come while an iteration runs make
    /// one more iteration, not one each. A pipe, so that the loop can wait on it and on a
    /// ``ChangeWatcher`` in one `poll(2)`.
    package final class Waker: Sendable {
        fileprivate let readEnd: Int32
        private let writeEnd: Int32
        /// Whether a wake is in the pipe and not yet drained: later wakes have nothing to add (a
        /// webhook backlog woke the dispatcher once per finished delivery, a `write` each).
        private let armed = Atomic<Bool>(false)

        /// A waker; without a file descriptor left for its pipe, one whose wakes do nothing (its loop
        /// still runs every interval: `poll` ignores a negative descriptor).
        package init() {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) != 0 {
                AccessLog.shared.error("a background worker's waker has no pipe (errno \(errno)); it polls only")
                ends = [-1, -1]
            }
            for end in ends where end >= 0 {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            (readEnd, writeEnd) = (ends[0], ends[1])
        }

        deinit {
            if readEnd >= 0 { close(readEnd) }
            if writeEnd >= 0 { close(writeEnd) }
        }

        /// Runs the loop's next iteration now (or right after the one in progress).
        package func wake() {
            guard !armed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)  // a full pipe already holds a wake
        }

        /// Empties the pipe; a wake from here on writes again (one that lands while it drains is
        /// covered by the iteration that follows).
        fileprivate func drain() {
            armed.store(false, ordering: .releasing)
            var bytes = [UInt8](repeating: 0, count: 64)
            while bytes.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
        }
    }

    /// What ended a loop's wait.
    private enum Wake {
        case timeout, waker, watcher
    }

    /// Runs `step` every `interval` seconds until ``stopAll()``, whenever `waker` is woken, and, with a
    /// `watcher`, `spacing` after a commit to the database is reported (under a load of commits, a
    /// step per `spacing` at most). The kernel reports a commit's write before the commit is visible
    /// (SQLite syncs the log, then publishes the commit, and holds the writer lock until then), so the
    /// loop lets `spacing` pass first, and since the commit may still be syncing, looks again after
    /// `spacing`, then twice that, and so on up to `interval`.
    package func start(
        name: String, interval: TimeInterval, waker: Waker = Waker(), watcher: (any ChangeWatcher)? = nil,
        spacing: TimeInterval = 0.005, step: @escaping @Sendable () -> Void
    ) {
        state.withLock {
            $0.running += 1
            $0.wakers.append(waker)
        }
        let thread = Thread { [self] in
            var followUp: TimeInterval?
            while !state.withLock({ $0.stopping }) {
                step()
                switch Self.wait(min(followUp ?? interval, interval), for: waker, or: watcher) {
                case .watcher:
                    followUp = spacing
                    _ = Self.wait(spacing, for: waker, or: nil)
                case .timeout:
                    followUp = followUp.map { $0 * 2 }.flatMap { $0 < interval ? $0 : nil }
                    // A watcher that is down (a PostgreSQL listener whose server restarted) reconnects.
                    if let watcher, watcher.descriptor < 0 { watcher.drain() }
                case .waker:
                    break
                }
            }
            state.withLock { $0.running -= 1 }
        }
        thread.name = name
        thread.start()
    }

    /// Waits until `interval` is out, `waker` is woken, or `watcher` sees a commit (the waker wins
    /// when both are ready).
    private static func wait(_ interval: TimeInterval, for waker: Waker, or watcher: (any ChangeWatcher)?) -> Wake {
        var descriptors = [pollfd(fd: waker.readEnd, events: Int16(POLLIN), revents: 0)]
        if let watcher { descriptors.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: Int((interval * 1000).rounded(.up)))
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return .timeout }
        let woken = descriptors[0].revents != 0
        if woken { waker.drain() }
        if let watcher, descriptors[1].revents != 0 {
            watcher.drain()
            if !woken { return .watcher }
        }
        return woken ? .waker : .timeout
    }

    /// Asks every loop to stop, wakes the ones waiting out their interval, and waits (up to 10 s) for
    /// the ones in a step to finish it.
    package func stopAll() {
        let wakers = state.withLock {
            $0.stopping = true
            return $0.wakers
        }
        wakers.forEach { $0.wake() }
        let deadline = Date().addingTimeInterval(10)
        while state.withLock({ $0.running }) > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }
}

import Foundation

/// Waiting in a test without holding a thread of the concurrency pool.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core (two here). A
/// synchronous test that sleeps while a background worker, a lease or another process makes progress
/// keeps its thread idle and every queued test waits behind it; these helpers suspend instead.
public enum Eventually {
    /// Polls `condition` every `interval` seconds until it holds, `timeout` seconds pass or the task is
    /// cancelled; returns whether it held. The condition runs once more at the end.
    public static func holds(
        timeout: TimeInterval, interval: TimeInterval = 0.02, _ condition: () throws -> Bool
    ) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !Task.isCancelled {
            if try condition() { return true }
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        }
        return try condition()
    }

    /// Waits for a started `process` to exit without blocking a pool thread; returns its termination
    /// status. A cancelled task stops polling and waits for the exit on its thread.
    public static func exit(of process: Process) async -> Int32 {
        while process.isRunning && !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

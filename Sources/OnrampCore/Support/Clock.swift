import Foundation

/// The source of the current time, injected so expiry is testable.
public protocol Clock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: Clock {
    /// Creates the system clock.
    public init() {}

    /// The current wall-clock time.
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to; for tests.
public final class ManualClock: Clock, @unchecked Sendable {
    // Safe to share: every access to `current` holds `lock`.
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock stopped at `start`.
    public init(_ start: Date) {
        self.current = start
    }

    /// The time the clock is stopped at.
    public func now() -> Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(interval) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}

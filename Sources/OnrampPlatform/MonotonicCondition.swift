#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A condition variable one waiter sleeps on, timed on the monotonic clock (a wall-clock change neither
/// shortens nor stretches a wait). Linux binds the condition to `CLOCK_MONOTONIC`
/// (`pthread_condattr_setclock`); Darwin has no such attribute and waits for the time left instead
/// (`pthread_cond_timedwait_relative_np`).
public final class MonotonicCondition {
    /// A point on the monotonic clock, in nanoseconds.
    public struct Deadline: Sendable {
        let nanoseconds: UInt64

        /// The point `seconds` from now.
        public static func after(seconds: Double) -> Deadline {
            Deadline(nanoseconds: now() &+ UInt64(max(0, seconds) * 1e9))
        }

        /// Whether the monotonic clock has reached this point.
        public var hasPassed: Bool { MonotonicCondition.now() >= nanoseconds }
    }

    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A condition with no waiter.
    public init() {
        #if canImport(Glibc)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #else
            pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Waits, releasing `mutex`, until signalled (or spuriously woken).
    public func wait(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits, releasing `mutex`, until signalled, spuriously woken or `deadline` passes.
    public func wait(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, until deadline: Deadline) {
        #if canImport(Glibc)
            var absolute = timespec(
                tv_sec: Int(deadline.nanoseconds / 1_000_000_000), tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
            pthread_cond_timedwait(condition, mutex, &absolute)
        #else
            let left = deadline.nanoseconds &- Swift.min(deadline.nanoseconds, Self.now())
            var relative = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #endif
    }

    /// Wakes the waiter; the caller holds the mutex.
    public func signal() {
        pthread_cond_signal(condition)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

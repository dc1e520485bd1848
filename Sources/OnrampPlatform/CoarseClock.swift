#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic clock read without the timestamp counter: the kernel's last tick, a few milliseconds
/// old (`CLOCK_MONOTONIC_COARSE` on Linux, `CLOCK_UPTIME_RAW_APPROX` on Darwin). Deadlines of seconds
/// need no more, and the server reads it several times per request.
public enum CoarseClock {
    /// Seconds since an arbitrary fixed point; only differences mean anything.
    public static func seconds() -> Double {
        #if canImport(Glibc)
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        #else
            return Double(clock_gettime_nsec_np(CLOCK_UPTIME_RAW_APPROX)) * 1e-9
        #endif
    }
}

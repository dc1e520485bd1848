import OnrampRuntime
import OnrampTestSupport
import Testing

@testable import HTTPServer
@testable import OnrampRuntime

/// The token buckets: burst, refill, keys apart, and memory bounded under a flood of new keys.
@Suite(.blocking) struct RateLimiterTests {
    @Test func burstsThenRefillsAtItsRate() {
        let limiter = RateLimiter(ratePerSecond: 2, burst: 4)
        #expect((0..<5).map { _ in limiter.allow("a", now: 100) } == [true, true, true, true, false])
        #expect(limiter.allow("b", now: 100), "another key has its own bucket")
        #expect(!limiter.allow("a", now: 100.4))
        #expect(limiter.allow("a", now: 100.5), "one token back after half a second at 2/s")
        #expect((0..<5).map { _ in limiter.allow("a", now: 200) } == [true, true, true, true, false], "full again")
        #expect(limiter.retryAfterSeconds() == 1)
    }

    @Test func aFloodOfNewKeysKeepsMemoryBounded() {
        let limiter = RateLimiter(ratePerSecond: 1, burst: 2, maximumKeys: 100)
        for index in 0..<10_000 { _ = limiter.allow("key-\(index)", now: 100) }
        #expect(limiter.keyCount <= 100)
        // Idle keys go first: after they refilled, a new key makes room without dropping busy ones.
        let idle = RateLimiter(ratePerSecond: 1, burst: 2, maximumKeys: 3)
        for key in ["x", "y", "z"] { _ = idle.allow(key, now: 100) }
        _ = idle.allow("w", now: 200)
        #expect(idle.keyCount == 1)
    }
}

import Foundation
import Synchronization

/// A token-bucket rate limiter keyed by any string (client address, project, key). Each key may
/// burst up to `burst` requests and refills at `ratePerSecond`. At most `maximumKeys` keys are kept:
/// idle ones are forgotten first, then, under a flood of new keys, any.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// Requests per second each key earns.
    public let ratePerSecond: Double
    /// The most requests a key may make at once.
    public let burst: Double
    private let maximumKeys: Int
    private let buckets = Locked([String: Bucket]())

    /// Creates a limiter.
    public init(ratePerSecond: Double, burst: Double, maximumKeys: Int = 100_000) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        self.maximumKeys = maximumKeys
    }

    /// Takes one token for `key` at `now` (seconds, any monotonic origin); `false` when the key is over its rate.
    public func allow(_ key: String, now: Double = Date().timeIntervalSince1970) -> Bool {
        buckets.withLock { buckets in
            if buckets.count >= maximumKeys, buckets[key] == nil {
                // Forget keys that have refilled completely: they are indistinguishable from new ones.
                buckets = buckets.filter { now - $0.value.updated < burst / ratePerSecond }
                // A flood of fresh keys: forget half of them too, so memory stays bounded (a forgotten key
                // starts again with a full burst).
                if buckets.count >= maximumKeys {
                    for stale in buckets.keys.prefix(buckets.count / 2) { buckets[stale] = nil }
                }
            }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * ratePerSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return false
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return true
        }
    }

    /// How many keys are remembered now.
    var keyCount: Int { buckets.withLock { $0.count } }

    /// Seconds until `key` has a token again (for `Retry-After`).
    public func retryAfterSeconds() -> Int {
        max(1, Int((1 / ratePerSecond).rounded(.up)))
    }
}

import Foundation
import OnrampRuntime

/// The rate limits of the App2App mobile endpoints, which take no API key: per client address, and per
/// project over all addresses together. Each is a token bucket bursting to twice its rate; a call over
/// either gets 429 `rate_limit_exceeded` with `Retry-After`.
public struct MobileRateLimits: Sendable {
    private let perAddress: RateLimiter?
    private let perProject: RateLimiter?

    /// Limits of `addressRate` calls per second per client address and `projectRate` per project
    /// (`nil`: that limit is off).
    public init(addressRate: Double?, projectRate: Double?) {
        perAddress = addressRate.map { RateLimiter(ratePerSecond: $0, burst: 2 * $0) }
        perProject = projectRate.map { RateLimiter(ratePerSecond: $0, burst: 2 * $0) }
    }

    /// Admits one call from `address` at `now`.
    package func admit(address: String, at now: Date) throws(App2AppRefusal) {
        try Self.admit(address, perAddress, now)
    }

    /// Admits one call for `projectId` at `now`, once the project is known. An id longer than any
    /// project's names none (a 403 follows) and gets no bucket of its own.
    package func admit(projectId: String, at now: Date) throws(App2AppRefusal) {
        guard projectId.utf8.count <= 64 else { return }
        try Self.admit(projectId, perProject, now)
    }

    private static func admit(_ key: String, _ limiter: RateLimiter?, _ now: Date) throws(App2AppRefusal) {
        guard let limiter, !limiter.allow(key, now: now.timeIntervalSince1970) else { return }
        throw .rateLimited(retryAfterSeconds: limiter.retryAfterSeconds())
    }
}

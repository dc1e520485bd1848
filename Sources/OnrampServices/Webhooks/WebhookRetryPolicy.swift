import Foundation

/// When to try a failed delivery again: exponential back-off from ``baseDelay`` doubling per attempt
/// up to ``maximumDelay``, times a jitter factor in 0.75…1.25, for at most ``retryWindow`` after the
/// delivery was created. An endpoint whose deliveries all fail for ``retryWindow`` is disabled.
public struct WebhookRetryPolicy: Sendable {
    /// The delay after the first failed attempt.
    public var baseDelay: TimeInterval
    /// The longest delay between two attempts.
    public var maximumDelay: TimeInterval
    /// How long a delivery is retried, and how long an endpoint may keep failing before it is disabled.
    public var retryWindow: TimeInterval

    /// Creates a policy; the defaults retry for 3 days, at most every 6 hours.
    public init(
        baseDelay: TimeInterval = 5, maximumDelay: TimeInterval = 6 * 3600, retryWindow: TimeInterval = 3 * 86400
    ) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.retryWindow = retryWindow
    }

    /// The delay after `attempts` failed attempts (1 for the first), with `jitter` in 0…1 spreading
    /// the result over 0.75…1.25 times the nominal delay.
    public func delay(afterAttempts attempts: Int, jitter: Double) -> TimeInterval {
        let exponent = Double(min(max(attempts - 1, 0), 30))
        let nominal = min(baseDelay * pow(2, exponent), maximumDelay)
        return nominal * (0.75 + 0.5 * min(max(jitter, 0), 1))
    }
}

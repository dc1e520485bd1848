import OnrampRuntime
import Synchronization

/// Request counters by route and status and a latency histogram, exposed in the Prometheus text
/// format. Route labels are route patterns, never raw paths, so cardinality stays bounded.
public final class Metrics: Sendable {
    private struct Key: Hashable {
        let route: String
        let status: Int
    }

    private struct State {
        var requests: [Key: Int] = [:]
        var bucketCounts: [Int]
        var count = 0
        var sumSeconds = 0.0
        var refusals: [ConnectionRefusal: Int] = [:]
        var openConnections = 0
    }

    /// Histogram bucket upper bounds, in seconds.
    public static let bucketBounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    private let state = Locked(State(bucketCounts: Array(repeating: 0, count: Metrics.bucketBounds.count)))
    /// Liveness probes answered before routing (an atomic: no lock on the probe's path).
    private let probes = Atomic<Int>(0)

    /// Creates empty metrics.
    public init() {}

    /// Records one request.
    public func record(route: String, status: Int, durationSeconds: Double) {
        state.withLock { state in
            state.requests[Key(route: route, status: status), default: 0] += 1
            if let bucket = Metrics.bucketBounds.firstIndex(where: { durationSeconds <= $0 }) {
                state.bucketCounts[bucket] += 1
            }
            state.count += 1
            state.sumSeconds += durationSeconds
        }
    }

    /// Records a liveness probe answered before routing.
    func recordProbe() {
        probes.add(1, ordering: .relaxed)
    }

    /// Records a connection refused or cut off by the ``ConnectionGuard``.
    func recordConnectionRefusal(_ reason: ConnectionRefusal) {
        state.withLock { $0.refusals[reason, default: 0] += 1 }
    }

    /// Records a connection opened (`+1`) or closed (`-1`).
    func recordOpenConnections(_ change: Int) {
        state.withLock { $0.openConnections += change }
    }

    /// Connections refused or cut off for `reason` so far.
    public func connectionRefusals(_ reason: ConnectionRefusal) -> Int {
        state.withLock { $0.refusals[reason, default: 0] }
    }

    /// The metrics in the Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        let snapshot = state.withLock { $0 }
        var lines = [
            "# HELP onramp_http_requests_total HTTP requests by route and status.",
            "# TYPE onramp_http_requests_total counter",
        ]
        let keys = snapshot.requests.keys.sorted { ($0.route, $0.status) < ($1.route, $1.status) }
        for key in keys {
            let route = key.route.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            lines.append(
                "onramp_http_requests_total{route=\"\(route)\",status=\"\(key.status)\"} \(snapshot.requests[key]!)")
        }
        lines.append("# HELP onramp_http_request_duration_seconds Time from request to response.")
        lines.append("# TYPE onramp_http_request_duration_seconds histogram")
        var cumulative = 0
        for (bound, count) in zip(Metrics.bucketBounds, snapshot.bucketCounts) {
            cumulative += count
            lines.append("onramp_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)")
        }
        lines.append("onramp_http_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.count)")
        lines.append("onramp_http_request_duration_seconds_sum \(snapshot.sumSeconds)")
        lines.append("onramp_http_request_duration_seconds_count \(snapshot.count)")
        lines.append("# HELP onramp_http_connections_refused_total Connections refused or cut off, by reason.")
        lines.append("# TYPE onramp_http_connections_refused_total counter")
        for reason in ConnectionRefusal.allCases {
            lines.append(
                "onramp_http_connections_refused_total{reason=\"\(reason.rawValue)\"} \(snapshot.refusals[reason, default: 0])"
            )
        }
        lines.append(
            "# HELP onramp_http_probes_total Liveness probes answered before routing (not in the counts above).")
        lines.append("# TYPE onramp_http_probes_total counter")
        lines.append("onramp_http_probes_total \(probes.load(ordering: .relaxed))")
        lines.append("# HELP onramp_http_connections_open Open client connections.")
        lines.append("# TYPE onramp_http_connections_open gauge")
        lines.append("onramp_http_connections_open \(snapshot.openConnections)")
        return lines.joined(separator: "\n") + "\n"
    }
}

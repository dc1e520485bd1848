import Foundation
import HTTPServer
import OnrampRuntime
import OnrampServices
import OnrampStore

/// The server's own routes: `/healthz` (checks the database, at most once a second), `/livez` (the process
/// answers; no database) and `/metrics` (Prometheus text).
public enum OperationsRoutes {
    /// The liveness probe's path, which the server answers before routing (``ServerConfiguration/livenessPath``).
    public static let livenessPath = "/livez"

    static func register(
        on router: inout Router, database: any Database, metrics: Metrics,
        health: HealthCheck? = nil
    ) {
        // The answers are built once: a probe costs at most the database's ping and nothing else.
        let healthy = HTTPResponse.json(["status": "ok", "database": "ok"])
        let unavailable = HTTPResponse.json(["status": "unavailable", "database": "unreachable"], status: 503)
        let check = health ?? HealthCheck(database: database)
        router.add(Operations.health) { _ in check.isHealthy() ? healthy : unavailable }
        let alive = HTTPResponse.json(["status": "ok"])
        router.add(Operations.liveness) { _ in alive }
        router.add(Operations.metrics) { _ in
            .text(
                metrics.prometheusText() + storeMetrics(database),
                contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// SQLite's transactions: writes, the commits they were grouped into, and reads.
    static func storeMetrics(_ database: any Database) -> String {
        guard let sqlite = database as? SQLiteDatabase else { return "" }
        let statistics = sqlite.groupCommitStatistics
        return """
            # HELP onramp_sqlite_transactions_total Write transactions run on the SQLite writer.
            # TYPE onramp_sqlite_transactions_total counter
            onramp_sqlite_transactions_total \(statistics.transactions)
            # HELP onramp_sqlite_commits_total Commits the write transactions were grouped into.
            # TYPE onramp_sqlite_commits_total counter
            onramp_sqlite_commits_total \(statistics.groups)
            # HELP onramp_sqlite_read_transactions_total Read transactions run on SQLite's readers.
            # TYPE onramp_sqlite_read_transactions_total counter
            onramp_sqlite_read_transactions_total \(sqlite.readTransactions)

            """
    }
}

/// The database check `/healthz` answers from: a ping at most ``maximumAge`` seconds old. Probes from
/// several load balancers then cost one ping a second between them, and a database that stops answering
/// shows as unavailable within that second.
final class HealthCheck: Sendable {
    /// How old a check may be and still answer a probe.
    let maximumAge: Double
    private let database: any Database
    /// Seconds on a monotonic clock.
    private let now: @Sendable () -> Double
    private let last = Locked<(at: Double, healthy: Bool)?>(nil)

    /// A check of `database`, on the process's monotonic clock unless `now` says otherwise (tests).
    init(
        database: any Database, maximumAge: Double = 1,
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.database = database
        self.maximumAge = maximumAge
        self.now = now
    }

    /// Whether the database answered its last ping, made now unless one was made within ``maximumAge``.
    func isHealthy() -> Bool {
        let now = self.now()
        if let last = last.withLock({ $0 }), now >= last.at, now - last.at < maximumAge { return last.healthy }
        let healthy = (try? database.ping()) != nil
        last.withLock { $0 = (now, healthy) }
        return healthy
    }
}

import HTTPServer
import OnrampServices
import OnrampStore

/// The server's own routes: `/healthz` (checks the database), `/livez` (the process answers; no
/// database) and `/metrics` (Prometheus text).
enum OperationsRoutes {
    static func register(on router: inout Router, database: any Database, metrics: Metrics) {
        // The answers are built once: a probe costs the database's ping and nothing else.
        let healthy = HTTPResponse.json(["status": "ok", "database": "ok"])
        let unavailable = HTTPResponse.json(["status": "unavailable", "database": "unreachable"], status: 503)
        router.add(Operations.health) { _ in
            do {
                try database.ping()
                return healthy
            } catch {
                return unavailable
            }
        }
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

import HTTPServer
import OnrampStore

/// The server's own routes: `/healthz` (checks the database), `/livez` (the process answers; no
/// database) and `/metrics` (Prometheus text).
enum OperationsRoutes {
    static func register(on router: inout Router, database: any Database, metrics: Metrics) {
        router.add("GET", "/healthz") { _ in
            do {
                try database.ping()
                return .json(["status": "ok", "database": "ok"])
            } catch {
                return .json(["status": "unavailable", "database": "unreachable"], status: 503)
            }
        }
        router.add("GET", "/livez") { _ in .json(["status": "ok"]) }
        router.add("GET", "/metrics") { _ in
            .text(metrics.prometheusText(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}

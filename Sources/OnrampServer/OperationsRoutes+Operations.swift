import HTTPServer
import OnrampServices
import OnrampWire

extension OperationsRoutes {
    /// The OpenAPI operations of the server's own routes: health, liveness and metrics (no credentials).
    enum Operations {
        /// The plain error object of the server's own routes (``PlainErrorRenderer``).
        static let error = APISchema.object(
            [
                "error": .object(
                    ["code": .string, "message": .string, "param": .string, "request_id": .string],
                    required: ["code", "message", "request_id"])
            ], required: ["error"])

        /// The answers every one of these routes may also give: a request refused at the server's edge.
        static let errors = [
            APIResponse.json(400, "A refused request.", error).ranged("4XX"),
            APIResponse.json(500, "The server failed.", error).ranged("5XX"),
        ]

        /// `{status: "ok", database: "ok"}`.
        static let healthy = APISchema.object(
            ["status": .constant("ok"), "database": .constant("ok")], required: ["status", "database"])

        /// `{status: "unavailable", database: "unreachable"}`.
        static let unhealthy = APISchema.object(
            ["status": .constant("unavailable"), "database": .constant("unreachable")],
            required: ["status", "database"])

        /// `GET /healthz`.
        static let health = APIOperation(
            "GET /healthz",
            id: "getHealth", summary: "Reports whether the server and its database answer.", tag: "Operations",
            responses: [
                .json(200, "The server and its database answer.", healthy),
                .json(503, "The database does not answer.", unhealthy),
            ] + errors)

        /// `GET /livez`: the server answers it before routing (``LivenessProbe``), with this route's answer.
        static let liveness = APIOperation(
            "GET \(OperationsRoutes.livenessPath)",
            id: "getLiveness",
            summary: "Reports that the process answers (the database is not checked; not in the request log).",
            tag: "Operations",
            responses: [.json(200, "The process answers.", .object(["status": .constant("ok")], required: ["status"]))]
                + errors)

        /// `GET /metrics`.
        static let metrics = APIOperation(
            "GET /metrics",
            id: "getMetrics", summary: "Returns the request and store metrics in Prometheus text format.",
            tag: "Operations",
            responses: [
                APIResponse(
                    status: "200", description: "Prometheus text exposition format 0.0.4.",
                    contentType: "text/plain", schema: .string)
            ] + errors)
    }
}

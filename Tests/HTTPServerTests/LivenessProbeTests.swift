import Foundation
import OnrampRuntime
import OnrampTestSupport
import OnrampWire
import Testing

@testable import HTTPServer

/// The liveness probe is a probe: `GET` or `HEAD` of its path, without query or body, is answered before
/// routing with the answer its route gave once at start (and the request's own Request-Id), outside the
/// request log and the access log, counted by one counter; anything else on the path is routed.
@Suite struct LivenessProbeTests {
    @Test func theProbeIsAnsweredBeforeRoutingAndOutsideTheLogs() throws {
        let calls = Locked(0)
        var router = Router()
        router.add("GET", "/livez") { _ in
            calls.withLock { $0 += 1 }
            return .json(["status": "ok"])
        }
        let lines = LockedLines()
        let log = AccessLog()
        log.configure(enabled: true) { bytes in lines.append(String(decoding: bytes, as: UTF8.self)) }
        let requestLog = RequestLog(capacity: 100)
        let metrics = Metrics()
        let server = HTTPServer(
            configuration: ServerConfiguration(port: 0, threadCount: 2, livenessPath: "/livez"), router: router,
            metrics: metrics, log: log, requestLog: requestLog)
        try server.start()
        #expect(calls.withLock { $0 } == 1, "the route answered once, at start")

        let client = try RawHTTPClient(port: server.port)
        var requestIds: Set<String> = []
        for _ in 0..<3 {
            let probe = try client.request("GET", "/livez")
            #expect(probe.status == 200 && probe.text == #"{"status":"ok"}"#)
            #expect(probe.headers["content-type"] == "application/json")
            requestIds.insert(try #require(probe.headers["request-id"]))
        }
        #expect(requestIds.count == 3, "each probe has a Request-Id of its own")
        let head = try client.request("HEAD", "/livez")
        #expect(head.status == 200 && head.body.isEmpty)

        // A query or another method is routed, and logged.
        #expect(try client.request("GET", "/livez?verbose=1").status == 200)
        #expect(try client.request("POST", "/livez").status == 405)
        server.shutdown(gracePeriod: 1)

        #expect(calls.withLock { $0 } == 2, "only the request with a query reached the handler")
        #expect(requestLog.recent().map(\.status).sorted() == [200, 405], "only the routed requests are listed")
        let logged = lines.joined
        #expect(logged.components(separatedBy: "msg=request ").count - 1 == 2, "\(logged)")
        #expect(metrics.prometheusText().contains("onramp_http_probes_total 4\n"))
    }

    /// A path whose route does not answer 2xx at start is not a probe: its requests are routed.
    @Test func aPathThatDoesNotAnswerIsNotAProbe() throws {
        let server = HTTPServer(
            configuration: ServerConfiguration(port: 0, threadCount: 2, livenessPath: "/missing"), router: Router())
        #expect(server.livenessProbe == nil)
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        #expect(try RawHTTPClient(port: server.port).request("GET", "/missing").status == 404)
    }
}

import Foundation
import OnrampRuntime
import OnrampTestSupport
import Testing

@testable import HTTPServer

/// Hostile clients against a real server on a real port: slow and idle sockets, floods from many
/// addresses (127.0.0.0/8 is all loopback), and request heads that two parties could read differently.
/// Each flood is small and bounded in time.
@Suite(.serialized, .blocking) struct ConnectionDefenceTests {
    static func startServer(_ limits: ConnectionLimits, metrics: Metrics = Metrics(), log: AccessLog = .shared) throws
        -> HTTPServer
    {
        var router = Router()
        router.add("GET", "/healthz") { _ in .json(["status": "ok"]) }
        router.add("POST", "/echo") { request in .json(try request.parsedBody()) }
        router.add("GET", "/query") { request in .json(["count": .number(String(request.query.count))]) }
        let server = HTTPServer(
            configuration: ServerConfiguration(port: 0, threadCount: 2, connections: limits), router: router,
            metrics: metrics, log: log)
        AccessLog.shared.configure(enabled: false)
        try server.start()
        return server
    }

    /// The `onramp_http_connections_open` gauge.
    static func openConnectionsGauge(_ metrics: Metrics) -> Int? {
        metrics.prometheusText().split(separator: "\n")
            .first { $0.hasPrefix("onramp_http_connections_open ") }
            .flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// Sends `bytes` one at a time, `interval` apart, until the server closes; returns the time it took.
    static func trickle(_ client: RawHTTPClient, _ bytes: [UInt8], interval: Double, for limit: Double) -> Double {
        let start = Date()
        for byte in bytes {
            if Date().timeIntervalSince(start) > limit { break }
            do { try client.send([byte]) } catch { break }
            Thread.sleep(forTimeInterval: interval)
        }
        return Date().timeIntervalSince(start)
    }

    @Test func aSlowHeadIsCutOffAtItsDeadlineHoweverOftenItTrickles() throws {
        let metrics = Metrics()
        let server = try Self.startServer(
            ConnectionLimits(total: 64, headSeconds: 1, keepAliveSeconds: 1, bodySeconds: 1), metrics: metrics)
        defer { server.shutdown(gracePeriod: 1) }
        let slow = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        let head = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "a", count: 200))".utf8)
        // A byte every 100 ms resets any idle timeout; the head deadline still ends it.
        _ = Self.trickle(slow, head, interval: 0.1, for: 4)
        #expect(slow.waitForClose())
        #expect(metrics.connectionRefusals(.headTimeout) == 1)
        #expect(metrics.prometheusText().contains(#"onramp_http_connections_refused_total{reason="head_timeout"} 1"#))
        // An ordinary client is unaffected.
        #expect(try RawHTTPClient(port: server.port).request("GET", "/healthz").status == 200)
    }

    @Test func aSlowBodyIsCutOffAtItsDeadline() throws {
        let metrics = Metrics()
        let server = try Self.startServer(
            ConnectionLimits(total: 64, headSeconds: 5, keepAliveSeconds: 5, bodySeconds: 1), metrics: metrics)
        defer { server.shutdown(gracePeriod: 1) }
        let slow = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        try slow.send(
            Array(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n".utf8))
        _ = Self.trickle(slow, Array(repeating: UInt8(ascii: " "), count: 400), interval: 0.1, for: 4)
        #expect(slow.waitForClose())
        #expect(metrics.connectionRefusals(.bodyTimeout) == 1)
    }

    @Test func oneAddressGetsNoMoreThanItsShare() throws {
        let metrics = Metrics()
        let lines = LockedLines()
        let log = AccessLog()
        log.configure(enabled: true) { bytes in lines.append(String(decoding: bytes, as: UTF8.self)) }
        let server = try Self.startServer(ConnectionLimits(total: 64, perAddress: 4), metrics: metrics, log: log)
        defer { server.shutdown(gracePeriod: 1) }
        let held = try (0..<4).map { _ in try RawHTTPClient(port: server.port, from: "127.0.0.2") }
        // Let the server set them up before the others arrive.
        Thread.sleep(forTimeInterval: 0.2)
        for _ in 0..<3 {
            let refused = try RawHTTPClient(port: server.port, timeoutSeconds: 2, from: "127.0.0.2")
            #expect(refused.waitForClose(), "a fifth connection from one address is closed at once")
        }
        #expect(metrics.connectionRefusals(.perAddress) == 3)
        // Refused connections were never counted open, so their close leaves the gauge alone.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(Self.openConnectionsGauge(metrics) == 4)
        log.flush()
        let warnings = lines.joined.components(separatedBy: "\n").filter {
            $0.contains("level=warn") && $0.contains("reason=per_address address=127.0.0.2")
        }
        #expect(warnings.count == 1, "logged once per address per minute: \(lines.joined)")
        // Another address is served, and so are the held connections.
        #expect(try RawHTTPClient(port: server.port, from: "127.0.0.3").request("GET", "/healthz").status == 200)
        #expect(try held[0].request("GET", "/healthz").status == 200)
    }

    @Test func aFloodOfIdleSocketsFromManyAddressesCannotLockOutAHealthCheck() throws {
        let metrics = Metrics()
        let server = try Self.startServer(ConnectionLimits(total: 40, perAddress: 8, reserve: 4), metrics: metrics)
        defer { server.shutdown(gracePeriod: 1) }
        // 60 idle sockets from 10 addresses: more than the server holds.
        var flood: [RawHTTPClient] = []
        for index in 0..<60 {
            flood.append(try RawHTTPClient(port: server.port, timeoutSeconds: 2, from: "127.0.1.\(index % 10 + 1)"))
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(server.openConnections <= 40)
        for _ in 0..<5 {
            let check = try RawHTTPClient(port: server.port, timeoutSeconds: 2)
            #expect(try check.request("GET", "/healthz").status == 200)
        }
        #expect(metrics.connectionRefusals(.evicted) >= 5)
        withExtendedLifetime(flood) {}
    }

    @Test func framingThatCouldBeReadTwoWaysIsRefused() throws {
        let server = try Self.startServer(ConnectionLimits(total: 64))
        defer { server.shutdown(gracePeriod: 1) }
        func send(_ head: String) throws -> RawHTTPClient.Response {
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 3)
            try client.send(Array(head.utf8))
            return try client.readResponse()
        }
        let conflicting = try send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 12\r\n\r\n{}")
        #expect(conflicting.status == 400)
        #expect(conflicting.text.contains("invalid_content_length"))
        let listed = try send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 3\r\n\r\n{}")
        #expect(listed.status == 400)
        let both = try send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        )
        #expect(both.status == 400)
        let gzip = try send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        #expect(gzip.status == 501)
        #expect(gzip.text.contains("unsupported_transfer_encoding"))
        let noHost = try send("GET /healthz HTTP/1.1\r\n\r\n")
        #expect(noHost.status == 400)
        #expect(noHost.text.contains("missing_host"))
        let twoHosts = try send("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        #expect(twoHosts.status == 400)
        // HTTP/1.0 needs no Host; the same length twice is one length.
        #expect(try send("GET /healthz HTTP/1.0\r\n\r\n").status == 200)
        let repeated = try send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}"
        )
        #expect(repeated.status == 200)
        // Chunked alone is fine.
        let chunked = try send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        )
        #expect(chunked.status == 200)
    }

    /// The query never enters the library's pool (about 56 bytes an argument there): a thousand
    /// arguments, beside a head near its limit, are answered at once.
    @Test func aThousandQueryParametersAreAnsweredAtOnce() throws {
        let server = try Self.startServer(ConnectionLimits(total: 64))
        defer { server.shutdown(gracePeriod: 1) }
        let query = (0..<1000).map { "p\($0)=v" }.joined(separator: "&")
        let response = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request("GET", "/query?\(query)")
        #expect(response.status == 200)
        #expect(response.text == #"{"count":1000}"#)
        let withHeaders = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
            "GET", "/query?\(query)", headers: [("X-Big", String(repeating: "a", count: 8000))])
        #expect(withHeaders.status == 200)
        #expect(withHeaders.text == #"{"count":1000}"#)
        // More than the limit (and more than the library's pool holds) is refused, not left unanswered.
        for count in [1001, 3000] {
            let many = Array(repeating: "a", count: count).joined(separator: "&")
            let refused = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request("GET", "/query?\(many)")
            #expect(refused.status == 414)
            #expect(refused.text.contains("too_many_query_parameters"))
        }
        let long = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
            "GET", "/query?q=" + String(repeating: "a", count: 9000))
        #expect(long.status == 414)
    }

    /// The query counts toward the head: a 7 KB query (within the URL limit) and 10 KB of headers are
    /// together over the 16 KiB head limit.
    @Test func theQueryCountsTowardTheHeadLimit() throws {
        let server = try Self.startServer(ConnectionLimits(total: 64))
        defer { server.shutdown(gracePeriod: 1) }
        let query = (0..<10).map { "q\($0)=\(String(repeating: "c", count: 690))" }.joined(separator: "&")
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 3)
        let alone = try client.request("GET", "/query?" + query)
        #expect(alone.status == 200)
        let response = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
            "GET", "/query?" + query, headers: [("X-Big", String(repeating: "a", count: 10_000))])
        #expect(response.status == 431)
        #expect(response.text.contains("request_header_fields_too_large"))
    }

    /// A head within the limit is served; over it, up to the connection's pool (the limit and 4 KiB), our
    /// 431 in the error shape; beyond the pool the library's own 431, a small HTML page. (Between the
    /// two, in a band of about 300 bytes where the head fills the pool exactly, libmicrohttpd 0.9.75 has
    /// no room left to write any answer and closes the connection.)
    @Test func aHeadFarOverTheLimitGets431() throws {
        let server = try Self.startServer(ConnectionLimits(total: 64))
        defer { server.shutdown(gracePeriod: 1) }
        let withinLimit = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
            "GET", "/healthz", headers: [("X-Big", String(repeating: "a", count: 16_000))])
        #expect(withinLimit.status == 200)
        for size in [16_500, 18_000, 19_000] {
            let response = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
                "GET", "/healthz", headers: [("X-Big", String(repeating: "a", count: size))])
            #expect(response.status == 431)
            #expect(response.text.contains("request_header_fields_too_large"), "head of \(size) bytes")
        }
        for size in [21_000, 100_000, 1_000_000] {
            let response = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
                "GET", "/healthz", headers: [("X-Big", String(repeating: "a", count: size))])
            #expect(response.status == 431, "head of \(size) bytes")
            #expect(response.text.contains("Request too big"), "head of \(size) bytes")
        }
    }
}

/// A response whose head cannot go out as it is becomes a 500 with the request's id, never a close
/// without an answer (libmicrohttpd drops a header holding CR or LF without a word).
@Suite(.serialized, .blocking) struct UnsendableResponseTests {
    @Test func anUnsendableHeadBecomesA500() throws {
        var router = Router()
        router.add("GET", "/split") { _ in
            var response = HTTPResponse.text("moved", status: 303)
            response.headers.set("Location", "https://example.com/\r\nSet-Cookie: a=b")
            return response
        }
        router.add("GET", "/huge") { _ in
            var response = HTTPResponse.text("big", status: 303)
            response.headers.set("Location", "https://example.com/" + String(repeating: "a", count: 40_000))
            return response
        }
        let server = HTTPServer(
            configuration: ServerConfiguration(port: 0, threadCount: 2, connections: ConnectionLimits(total: 64)),
            router: router)
        AccessLog.shared.configure(enabled: false)
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        for path in ["/split", "/huge"] {
            let response = try RawHTTPClient(port: server.port, timeoutSeconds: 3).request("GET", path)
            #expect(response.status == 500, "\(path)")
            #expect(response.headers["location"] == nil)
            #expect(response.headers["request-id"]?.hasPrefix("req_") == true)
        }
    }

    /// A response head shares the connection's pool with the request's head: one that does not fit what
    /// the request left becomes a 500 (whose head does), never a close without an answer.
    @Test func aResponseHeadMustFitWhatTheRequestLeftOfThePool() throws {
        var router = Router()
        router.add("GET", "/sized") { request in
            var response = HTTPResponse.text("moved", status: 303)
            let size = Int(request.queryValue("size") ?? "0") ?? 0
            response.headers.set("Location", "https://example.com/" + String(repeating: "a", count: size))
            return response
        }
        let server = HTTPServer(
            configuration: ServerConfiguration(port: 0, threadCount: 2, connections: ConnectionLimits(total: 64)),
            router: router)
        AccessLog.shared.configure(enabled: false)
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        func status(location: Int, requestHead: Int) throws -> Int {
            try RawHTTPClient(port: server.port, timeoutSeconds: 3).request(
                "GET", "/sized?size=\(location)", headers: [("X-Big", String(repeating: "b", count: requestHead))]
            ).status
        }
        #expect(try status(location: 15_000, requestHead: 0) == 303)
        #expect(try status(location: 4_000, requestHead: 15_000) == 303)
        for (location, requestHead) in [(9_000, 15_000), (13_000, 8_000), (19_500, 0), (31_000, 0)] {
            #expect(try status(location: location, requestHead: requestHead) == 500, "\(location), \(requestHead)")
        }
    }

    @Test func sendableHeads() {
        var response = HTTPResponse.text("ok")
        #expect(response.headIsSendable(maximumBytes: 1024))
        response.headers.set("X Bad", "v")
        #expect(!response.headIsSendable(maximumBytes: 1024))
        response = HTTPResponse.text("ok")
        response.headers.set("X-Nul", "a\0b")
        #expect(!response.headIsSendable(maximumBytes: 1024))
        #expect(!HTTPResponse.text("ok").headIsSendable(maximumBytes: 10))
    }
}

import Foundation
import OnrampRuntime
import OnrampTestSupport
import Synchronization
import Testing

@testable import HTTPServer

/// Tests against a real server on a real loopback port.
@Suite(.serialized, .blocking) struct LiveServerTests {
    static func startServer(
        maximumBodyBytes: Int = 1024, threadCount: Int = 2, extraRoutes: (inout Router) -> Void = { _ in }
    ) throws -> HTTPServer {
        var router = Router()
        router.add("GET", "/healthz") { _ in .json(["status": "ok"]) }
        router.add("POST", "/echo") { request in .json(try request.parsedBody()) }
        router.add("GET", "/query") { request in .json(.object(request.query.map { ($0.0, .string($0.1)) })) }
        extraRoutes(&router)
        let server = HTTPServer(
            configuration: ServerConfiguration(
                port: 0, threadCount: threadCount, maximumBodyBytes: maximumBodyBytes),
            router: router)
        AccessLog.shared.configure(enabled: false)
        try server.start()
        return server
    }

    @Test func servesRequestsWithARequestIdOverKeepAlive() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.request("GET", "/healthz")
        let second = try client.request("GET", "/healthz")
        #expect(first.status == 200)
        #expect(first.text == #"{"status":"ok"}"#)
        #expect(first.headers["request-id"]?.hasPrefix("req_") == true)
        #expect(second.status == 200)
        #expect(first.headers["request-id"] != second.headers["request-id"])
    }

    /// Connections opened in a burst are dealt out to the worker threads in turn, so as many blocking
    /// handlers run at once as there are workers. With libmicrohttpd's own accept, the first worker to
    /// wake took the whole burst and served its requests one after another: the first handler waited
    /// for the others in vain.
    @Test func aBurstOfConnectionsIsSpreadOverTheWorkers() throws {
        let workers = 4
        let arrivals = Locked(0)
        let server = try Self.startServer(threadCount: workers) { router in
            router.add("GET", "/rendezvous") { _ in
                arrivals.withLock { $0 += 1 }
                let deadline = Date().addingTimeInterval(5)
                while arrivals.withLock({ $0 }) < workers && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
                return .json(["together": .bool(arrivals.withLock { $0 } >= workers)])
            }
        }
        defer { server.shutdown(gracePeriod: 1) }
        let clients = try (0..<workers).map { _ in try RawHTTPClient(port: server.port) }
        for client in clients {
            try client.send(Array("GET /rendezvous HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8))
        }
        for client in clients {
            #expect(try client.readResponse().text == #"{"together":true}"#)
        }
    }

    @Test func parsesJSONAndFormBodies() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let client = try RawHTTPClient(port: server.port)
        let json = try client.request(
            "POST", "/echo", headers: [("Content-Type", "application/json")], body: Array(#"{"a":"1.50"}"#.utf8))
        #expect(json.text == #"{"a":"1.50"}"#)
        let form = try client.request(
            "POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("a[b][]=x&a[b][]=y".utf8))
        #expect(form.text == #"{"a":{"b":["x","y"]}}"#)
    }

    @Test func decodesQueryParameters() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let response = try RawHTTPClient(port: server.port).request("GET", "/query?page_size=10&name=a%2Bb+c")
        #expect(response.text == #"{"page_size":"10","name":"a+b c"}"#)
        // A name alone has an empty value, `?` and `=` after the first belong to the value, empty pairs
        // are skipped, and a pair that does not decode is dropped.
        let edges = try RawHTTPClient(port: server.port).request("GET", "/query?flag&&next=a?b=c&bad=%zz&last=")
        #expect(edges.text == #"{"flag":"","next":"a?b=c","last":""}"#)
    }

    @Test func refusesMalformedJSONWith400() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let response = try RawHTTPClient(port: server.port).request(
            "POST", "/echo", headers: [("Content-Type", "application/json")], body: Array("{nope".utf8))
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_json""#))
    }

    @Test(arguments: [";", "", " ; charset=utf-8", "text/plain"])
    func survivesOddContentTypes(contentType: String) throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let response = try RawHTTPClient(port: server.port).request(
            "POST", "/echo", headers: [("Content-Type", contentType)], body: Array("a=1".utf8))
        #expect([200, 415].contains(response.status))
        #expect(try RawHTTPClient(port: server.port).request("GET", "/healthz").status == 200)
    }

    @Test func refusesABadFormWith400() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let response = try RawHTTPClient(port: server.port).request(
            "POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("a[b=1".utf8))
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_form""#))
    }

    @Test func answersUnknownRoutesAndWrongMethods() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.request("GET", "/missing").status == 404)
        let wrong = try client.request("DELETE", "/healthz")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET")
    }

    @Test func refusesOversizedBodiesWith413() throws {
        let server = try Self.startServer(maximumBodyBytes: 64)
        defer { server.shutdown(gracePeriod: 1) }
        let declared = try RawHTTPClient(port: server.port).request(
            "POST", "/echo", headers: [("Content-Type", "application/json")], body: Array(repeating: 0x20, count: 65))
        #expect(declared.status == 413)
        #expect(declared.text.contains("payload_too_large"))
        // A chunked upload has no Content-Length; the limit applies as the body arrives.
        let client = try RawHTTPClient(port: server.port)
        let chunk = String(repeating: "a", count: 100)
        try client.send(
            Array(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n\(chunk)\r\n0\r\n\r\n".utf8))
        #expect(try client.readResponse().status == 413)
    }

    @Test func refusesOverlongURLs() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        let response = try RawHTTPClient(port: server.port).request("GET", "/" + String(repeating: "a", count: 9000))
        #expect(response.status == 414)
    }

    @Test func refusesOversizedHeadersWith431() throws {
        let server = try Self.startServer()
        defer { server.shutdown(gracePeriod: 1) }
        // Past the 16 KiB limit, in one header, spread over many (each weighs 68 bytes more than its text,
        // the library's record of it) or in the query: our error shape, before any body is read (so the
        // connection closes after the answer).
        for headers in [
            [("X-Big", String(repeating: "a", count: 18_000))],
            (0..<30).map { ("X-Part-\($0)", String(repeating: "b", count: 500)) },
            (0..<250).map { ("X-\($0)", "b") },
        ] {
            let response = try RawHTTPClient(port: server.port).request("GET", "/healthz", headers: headers)
            #expect(response.status == 431)
            #expect(response.text.contains("request_header_fields_too_large"), "\(response.text)")
            #expect(response.headers["request-id"] != nil)
        }
        let query = try RawHTTPClient(port: server.port).request(
            "GET",
            "/healthz?" + (0..<10).map { "q\($0)=\(String(repeating: "c", count: 1_900))" }.joined(separator: "&"))
        #expect(query.status == 414, "a query over the URL limit is refused before the head's size is weighed")
        // Just under the limit passes, in one header or in a hundred.
        let fits = try RawHTTPClient(port: server.port).request(
            "GET", "/healthz", headers: [("X-Big", String(repeating: "a", count: 15_000))])
        #expect(fits.status == 200)
        let manyFit = try RawHTTPClient(port: server.port).request(
            "GET", "/healthz", headers: (0..<100).map { ("X-Part-\($0)", String(repeating: "b", count: 80)) })
        #expect(manyFit.status == 200)
        // Beyond the connection's buffer the library refuses on its own.
        let huge = try RawHTTPClient(port: server.port).request(
            "GET", "/healthz", headers: [("X-Big", String(repeating: "a", count: 100_000))])
        #expect(huge.status == 431)
    }

    @Test func countsRequestsInMetrics() throws {
        let metrics = Metrics()
        var router = Router()
        router.add("GET", "/healthz") { _ in .text("ok") }
        let server = HTTPServer(
            configuration: ServerConfiguration(port: 0, threadCount: 2), router: router, metrics: metrics)
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        let client = try RawHTTPClient(port: server.port)
        _ = try client.request("GET", "/healthz")
        _ = try client.request("GET", "/nope")
        let text = metrics.prometheusText()
        #expect(text.contains(#"onramp_http_requests_total{route="/healthz",status="200"} 1"#))
        #expect(text.contains(#"onramp_http_requests_total{route="not_found",status="404"} 1"#))
        #expect(text.contains(#"onramp_http_request_duration_seconds_count 2"#))
    }

    @Test func gracefulShutdownFinishesARequestInFlight() throws {
        let entered = DispatchSemaphore(value: 0)
        let server = try Self.startServer { router in
            router.add("GET", "/slow") { _ in
                entered.signal()
                Thread.sleep(forTimeInterval: 1.0)
                return .text("done")
            }
        }
        let port = server.port
        // The client on a thread of its own: a task would need a concurrency-pool thread, and the pool
        // (two threads here) may be busy with other tests while this one blocks on the semaphores.
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<Result<RawHTTPClient.Response, any Error>?>(nil)
        Thread {
            let answer = Result { try RawHTTPClient(port: port).request("GET", "/slow") }
            result.withLock { $0 = answer }
            finished.signal()
        }.start()
        entered.wait()
        server.shutdown(gracePeriod: 5)
        finished.wait()
        let response = try #require(result.withLock { $0 }).get()
        #expect(response.status == 200)
        #expect(response.text == "done")
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port).request("GET", "/healthz") }
    }

    @Test func writesOneAccessLogLinePerRequestWithoutBodies() throws {
        let lines = LockedLines()
        var router = Router()
        router.add("POST", "/login") { _ in .text("ok") }
        let log = AccessLog()
        log.configure(enabled: true) { bytes in lines.append(String(decoding: bytes, as: UTF8.self)) }
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), router: router, log: log)
        try server.start()
        _ = try RawHTTPClient(port: server.port).request("POST", "/login", body: Array("password=hunter2".utf8))
        server.shutdown(gracePeriod: 1)
        let text = lines.joined
        #expect(text.contains("method=POST route=/login status=200"))
        #expect(text.contains("request_id=req_"))
        #expect(!text.contains("hunter2"))
    }

    /// A refused request's line carries its error code, and only a code's characters of it: a code is never
    /// input, but a line could not be split or forged even if one were.
    @Test func aRefusalsLogLineCarriesItsCode() throws {
        let lines = LockedLines()
        var router = Router()
        router.add("GET", "/refused") { _ in throw HTTPError(status: 400, code: "parameter_invalid", message: "no") }
        router.add("GET", "/forged") { _ in
            throw HTTPError(status: 400, code: "bad code\nlevel=error msg=forged", message: "no")
        }
        let log = AccessLog()
        log.configure(enabled: true) { bytes in lines.append(String(decoding: bytes, as: UTF8.self)) }
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), router: router, log: log)
        try server.start()
        #expect(try RawHTTPClient(port: server.port).request("GET", "/refused").status == 400)
        #expect(try RawHTTPClient(port: server.port).request("GET", "/forged").status == 400)
        #expect(try RawHTTPClient(port: server.port).request("GET", "/nowhere").status == 404)
        server.shutdown(gracePeriod: 1)
        let text = lines.joined
        #expect(text.contains("route=/refused status=400") && text.contains("error_code=parameter_invalid\n"))
        #expect(text.contains("error_code=badcodelevelerrormsgforged\n"), "\(text)")
        #expect(!text.contains("msg=forged\nlevel"), "no line was forged")
        #expect(text.contains("status=404") && text.contains("error_code=not_found"))
    }
}

/// Collects log output from the flusher thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var joined: String { lock.withLock { lines.joined() } }
}

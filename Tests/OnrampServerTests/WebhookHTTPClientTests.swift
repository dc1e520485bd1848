import Foundation
import HTTPServer
import OnrampRuntime
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The deliveries' HTTP client (libcurl's multi interface on a thread of its own) against a real
/// HTTP server on a real port.
@Suite("Webhook HTTP client", .blocking)
struct WebhookHTTPClientTests {
    /// A local endpoint that records what it receives and answers `status` with `body`.
    final class Endpoint: Sendable {
        let server: HTTPServer
        let received = Locked<[HTTPRequest]>([])

        init(status: Int = 200, body: String = "ok", delay: TimeInterval = 0) throws {
            AccessLog.shared.configure(enabled: false)
            var router = Router()
            let received = self.received
            router.add("POST", "/hook") { request in
                received.withLock { $0.append(request) }
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                return .text(body, status: status)
            }
            server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), router: router)
            try server.start()
        }

        deinit { server.shutdown(gracePeriod: 0) }

        var url: String { "http://127.0.0.1:\(server.port)/hook" }
        var requests: [HTTPRequest] { received.withLock { $0 } }
    }

    static func send(
        _ client: WebhookHTTPClient, to url: String, headers: [(String, String)] = [], body: String = "{}",
        timeout: TimeInterval = 5
    ) -> WebhookHTTPClient.Response {
        let answer = Mutex<WebhookHTTPClient.Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        client.send(.init(url: url, headers: headers, body: Array(body.utf8), timeout: timeout)) { response in
            answer.withLock { $0 = response }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 30)
        return answer.withLock { $0 } ?? .init(statusCode: nil, body: [], error: "no completion within 30 s")
    }

    static func client(
        idleLifetime: TimeInterval = 5, allowing policy: @escaping WebhookHTTPClient.AddressPolicy = { _ in true }
    )
        -> WebhookHTTPClient
    {
        WebhookHTTPClient(maximumConnectionsPerHost: 4, idleLifetime: idleLifetime, addressPolicy: policy)
    }

    /// Each request arrives as sent (headers in order, the body exactly, no `Expect: 100-continue`), the
    /// answer comes back, and consecutive deliveries share one kept-alive connection.
    @Test func deliversOverOneKeptAliveConnection() throws {
        let endpoint = try Endpoint(status: 202, body: "accepted")
        let client = Self.client()
        let body = String(repeating: "x", count: 4096)
        for index in 0..<5 {
            let response = Self.send(
                client, to: endpoint.url, headers: [("Content-Type", "application/json"), ("X-Index", "\(index)")],
                body: body)
            #expect(response.statusCode == 202 && response.error == nil, "\(response)")
            #expect(String(decoding: response.body, as: UTF8.self) == "accepted")
        }
        let requests = endpoint.requests
        #expect(requests.map { $0.headers["X-Index"] ?? "" } == ["0", "1", "2", "3", "4"])
        #expect(requests.allSatisfy { $0.body == Array(body.utf8) && $0.headers["Expect"] == nil })
        #expect(requests.first?.headers["Content-Type"] == "application/json")
        #expect(endpoint.server.openConnections == 1, "one connection carried all five")
    }

    /// A finished transfer's handle is reset and reused: the next request carries none of its headers,
    /// body or timeout, and a failed transfer's error does not stick to the next answer.
    @Test func aReusedHandleCarriesNothingFromTheTransferBefore() throws {
        let endpoint = try Endpoint()
        let slow = try Endpoint(delay: 1)
        let client = Self.client()
        let first = Self.send(client, to: endpoint.url, headers: [("X-First", "1")], body: #"{"n":1}"#)
        #expect(first.statusCode == 200, "\(first)")
        let timedOut = Self.send(client, to: slow.url, body: "{}", timeout: 0.2)
        #expect(timedOut.statusCode == nil && timedOut.error != nil, "\(timedOut)")
        let second = Self.send(client, to: endpoint.url, headers: [("X-Second", "2")], body: "{}")
        #expect(second.statusCode == 200 && second.error == nil, "\(second)")
        let requests = endpoint.requests
        #expect(requests.count == 2)
        #expect(requests.last?.headers["X-First"] == nil && requests.last?.headers["X-Second"] == "2")
        #expect(requests.last?.body == Array("{}".utf8))
    }

    /// The address a connection would go to is checked before its socket is opened: refused, the endpoint
    /// receives nothing and the outcome names the address.
    @Test func aRefusedAddressReceivesNothing() throws {
        let endpoint = try Endpoint()
        let client = Self.client(allowing: { $0 != "127.0.0.1" })
        let response = Self.send(client, to: endpoint.url)
        #expect(response.statusCode == nil)
        #expect(response.error?.contains("may not reach (127.0.0.1); no connection made") == true, "\(response)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(endpoint.requests.isEmpty)
    }

    /// A header field that would split into two (a line break in its value) is not sent at all.
    @Test func aHeaderWithALineBreakIsNotSent() throws {
        let endpoint = try Endpoint()
        let response = Self.send(Self.client(), to: endpoint.url, headers: [("X-Note", "a\r\nX-Injected: 1")])
        #expect(response.statusCode == nil && response.error?.contains("X-Note") == true, "\(response)")
        #expect(endpoint.requests.isEmpty)
    }

    /// No answer within the timeout is a failure without a status; a long body is cut to its first KiB.
    @Test func timeoutsAndLongBodies() throws {
        let silent = try Endpoint(delay: 3)
        let timedOut = Self.send(Self.client(), to: silent.url, timeout: 0.3)
        #expect(timedOut.statusCode == nil && timedOut.error != nil, "\(timedOut)")
        let verbose = try Endpoint(status: 500, body: String(repeating: "e", count: 5000))
        let failed = Self.send(Self.client(), to: verbose.url)
        #expect(
            failed.statusCode == 500 && failed.body.count == WebhookHTTPClient.excerptLimit, "\(failed.error ?? "")")
    }

    /// A redirect is an answer like any other: not followed.
    @Test func redirectsAreAnswers() throws {
        let target = try Endpoint()
        var router = Router()
        let location = target.url
        router.add("POST", "/hook") { _ in
            var response = HTTPResponse(status: 307)
            response.headers.set("Location", location)
            return response
        }
        let redirector = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), router: router)
        try redirector.start()
        defer { redirector.shutdown(gracePeriod: 0) }
        let response = Self.send(Self.client(), to: "http://127.0.0.1:\(redirector.port)/hook")
        #expect(response.statusCode == 307 && target.requests.isEmpty, "\(response)")
    }

    /// The client's thread ends when idle and the next request starts it again.
    @Test func theThreadEndsWhenIdleAndComesBack() throws {
        let endpoint = try Endpoint()
        let client = Self.client(idleLifetime: 0.05)
        #expect(Self.send(client, to: endpoint.url).statusCode == 200)
        let deadline = Date().addingTimeInterval(10)
        while client.threadIsRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!client.threadIsRunning, "the idle thread ended")
        #expect(Self.send(client, to: endpoint.url).statusCode == 200)
        #expect(endpoint.requests.count == 2)
    }

    /// Many requests at once all complete (more than the connections allowed per host: the rest wait).
    @Test func concurrentRequestsAllComplete() throws {
        let endpoint = try Endpoint()
        let client = Self.client()
        let statuses = Mutex<[Int?]>([])
        let group = DispatchGroup()
        for _ in 0..<50 {
            group.enter()
            client.send(.init(url: endpoint.url, headers: [], body: Array("{}".utf8), timeout: 10)) { response in
                statuses.withLock { $0.append(response.statusCode) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 } && endpoint.requests.count == 50)
        #expect(endpoint.server.openConnections <= 4)
    }
}

import HTTPServer
import OnrampServer
import OnrampTestSupport
import Testing

@testable import OnrampServices

/// How a test's requests reach its server. Either way the server listens on a real port (pages,
/// browsers, official clients and webhooks use it); the transport is only how the harness's own
/// `request`, `backend` and `sdk` calls travel.
enum TestTransport: Sendable {
    /// Through the server's router in this process, as a connection's handler calls it once the request
    /// is in: the default for route tests. The socket's checks (framing, head and body limits) are not
    /// made; tests of those send bytes with `RawHTTPClient`.
    case inProcess
    /// Over a new loopback connection for each request: end-to-end, browser, official-client and
    /// concurrency tests.
    case live
}

extension OnrampSandbox {
    /// Sends one request by `transport`, with the `Host` and `Content-Length` fields a client sends,
    /// and returns the answer as `RawHTTPClient` reads it (header names in lower case). An answer that
    /// contradicts the OpenAPI description fails the test (``DescribedAnswers``).
    func exchange(
        _ transport: TestTransport, _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]
    ) throws -> RawHTTPClient.Response {
        let response = try send(transport, method, target, headers: headers, body: body)
        for violation in DescribedAnswers(router: application.router).violations(
            method: method, target: target, response: response)
        {
            Issue.record("the answer contradicts /openapi.json: \(violation)")
        }
        return response
    }

    private func send(
        _ transport: TestTransport, _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]
    ) throws -> RawHTTPClient.Response {
        switch transport {
        case .live:
            return try RawHTTPClient(port: port).request(method, target, headers: headers, body: body)
        case .inProcess:
            var fields = [("Host", "127.0.0.1:\(port)")] + headers
            if !body.isEmpty || method == "POST" || method == "PUT" {
                fields.append(("Content-Length", "\(body.count)"))
            }
            var request = HTTPRequest(method: method, target: target, headers: HTTPHeaders(fields), body: body)
            request.remoteAddress = "127.0.0.1"
            let response = server.respond(to: request)
            var answerHeaders: [String: String] = [:]
            for (name, value) in response.headers { answerHeaders[name.lowercased()] = value }
            answerHeaders["content-length"] = "\(response.body.count)"
            return RawHTTPClient.Response(
                status: response.status, headers: answerHeaders, body: method == "HEAD" ? [] : response.body)
        }
    }

    /// A Stripe-style client with `key` whose calls travel by `transport`.
    func stripeClient(key: String, transport: TestTransport) -> StripeTestClient {
        StripeTestClient(key: key) { [self] method, target, headers, body in
            try exchange(transport, method, target, headers: headers, body: body)
        }
    }
}

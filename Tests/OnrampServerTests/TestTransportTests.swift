import Foundation
import OnrampTestSupport
import OnrampWire
import Testing

/// Route tests go through the router in process; they are worth as much as the answers equal what a
/// client on the socket gets. The same requests both ways must answer the same status, headers
/// (beyond those the socket adds: `Date`, `Connection`) and body (beyond its request id).
@Suite struct TestTransportTests {
    /// One exchange, with what differs between any two requests taken out.
    struct Answer: Equatable {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    static func answer(_ response: RawHTTPClient.Response) -> Answer {
        var headers = response.headers
        // The request id, under its own name and CDP's `Correlation-Id`.
        let requestId = headers.removeValue(forKey: "request-id") ?? "none"
        let correlationId = headers.removeValue(forKey: "correlation-id")
        #expect(correlationId == nil || correlationId == requestId)
        for name in ["date", "connection"] { headers.removeValue(forKey: name) }
        return Answer(
            status: response.status, headers: headers,
            body: response.text.replacingOccurrences(of: requestId, with: "<request-id>"))
    }

    @Test func inProcessAnswersAreTheAnswersOnTheSocket() throws {
        let server = try TestServer(startWorkers: false)
        let challenges = "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges"
        let requests: [(method: String, target: String, headers: [(String, String)], body: [UInt8])] = [
            ("GET", "/livez", [], []),
            ("HEAD", "/livez", [], []),
            ("GET", "/no/such/route", [], []),
            ("DELETE", "/livez", [], []),
            // A query decoded the same way: percent-escapes, `+` as a space, a pair without `=`.
            ("GET", "/v2/api-onramp/buy/select-asset?sessionToken=a%2Bb+c&x", [], []),
            ("POST", "/platform/v2/onramp/mobile/challenges", [("Content-Type", "application/json")], Array("{".utf8)),
            (
                "POST", "/onramp/v1/token", [("Content-Type", "application/json")],
                Array(#"{"addresses":[]}"#.utf8)
            ),
            ("POST", "/v1/crypto/onramp_sessions", [("Authorization", "Bearer sk_test_nope")], []),
        ]
        for request in requests {
            let live = try server.sandbox.exchange(
                .live, request.method, request.target, headers: request.headers, body: request.body)
            let inProcess = try server.sandbox.exchange(
                .inProcess, request.method, request.target, headers: request.headers, body: request.body)
            #expect(Self.answer(inProcess) == Self.answer(live), "\(request.method) \(request.target)")
        }
        // A write that succeeds changes the store the same way both ways: two challenges, each its own.
        let first = try server.sandbox.exchange(.live, "POST", challenges, headers: [], body: [])
        let second = try server.sandbox.exchange(.inProcess, "POST", challenges, headers: [], body: [])
        #expect(first.status == 201 && second.status == 201)
        #expect(Set(Self.answer(first).headers.keys) == Set(Self.answer(second).headers.keys))
        #expect(first.text != second.text)
    }
}

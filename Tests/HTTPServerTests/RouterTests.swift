import OnrampTestSupport
import Testing

@testable import HTTPServer

@Suite(.blocking) struct RouterTests {
    func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/keys/{keyId}") { request in .text(request.pathParameters["keyId"] ?? "") }
        router.add("PUT", "/keys/{keyId}") { _ in .text("put") }
        router.add("POST", "/sessions/challenges") { _ in .text("literal") }
        router.add("POST", "/sessions/{id}") { _ in .text("parameter") }
        router.add("DELETE", "/sessions/{id}") { _ in .text("deleted") }
        router.add("GET", "/boom") { _ in throw HTTPError(status: 422, code: "stale", message: "too old") }
        return router
    }

    @Test func decodesPathParametersIncludingEncodedSlashes() {
        let (response, route) = makeRouter().respond(to: HTTPRequest(method: "GET", path: "/keys/ab%2Fc%3D%3D"))
        #expect(String(decoding: response.body, as: UTF8.self) == "ab/c==")
        #expect(route == "/keys/{keyId}")
    }

    @Test func prefersLiteralSegmentsOverParameters() {
        let router = makeRouter()
        #expect(
            router.respond(to: HTTPRequest(method: "POST", path: "/sessions/challenges")).response.body
                == Array("literal".utf8))
        #expect(
            router.respond(to: HTTPRequest(method: "POST", path: "/sessions/x")).response.body
                == Array("parameter".utf8))
    }

    @Test func answers405WithAllow() {
        let (response, _) = makeRouter().respond(to: HTTPRequest(method: "DELETE", path: "/keys/k"))
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, PUT")
    }

    /// A path without parameters is found by one lookup: HEAD as GET; it is its own resource, so another
    /// method is 405 listing its methods only (a pattern it also fits, `/sessions/{id}`, does not answer it);
    /// an encoded spelling of the literal path is no literal match.
    @Test func literalPathsAreTheirOwnResource() {
        let router = makeRouter()
        let (head, headRoute) = router.respond(to: HTTPRequest(method: "HEAD", path: "/boom"))
        #expect(head.status == 422)
        #expect(headRoute == "/boom")
        for method in ["GET", "DELETE"] {
            let (wrongMethod, _) = router.respond(to: HTTPRequest(method: method, path: "/sessions/challenges"))
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["Allow"] == "POST")
        }
        #expect(
            router.respond(to: HTTPRequest(method: "DELETE", path: "/sessions/x")).response.body
                == Array("deleted".utf8))
        let encoded = router.respond(to: HTTPRequest(method: "POST", path: "/sessions/%63hallenges"))
        #expect(encoded.response.body == Array("parameter".utf8))
        #expect(encoded.route == "/sessions/{id}")
    }

    @Test func answers404ForUnknownPaths() {
        #expect(makeRouter().respond(to: HTTPRequest(method: "GET", path: "/nope")).response.status == 404)
        #expect(makeRouter().respond(to: HTTPRequest(method: "GET", path: "/keys/k/extra")).response.status == 404)
    }

    @Test func rendersHandlerErrorsWithTheFamilyOfThePath() throws {
        struct Shape: ErrorRenderer {
            func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
                .json(["kind": .string(error.code)], status: error.status)
            }
        }
        var router = makeRouter()
        router.setErrorRenderer(Shape(), forPathPrefix: "/boom")
        let (response, _) = router.respond(to: HTTPRequest(method: "GET", path: "/boom", requestId: "req_1"))
        #expect(response.status == 422)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"kind":"stale"}"#)
        #expect(response.headers["Request-Id"] == "req_1")
    }

    /// A family maps the domain errors its handlers throw, once, at its edge: under its prefix a domain
    /// error becomes that family's answer (before the error's own conversion); elsewhere the same error,
    /// unknown to the fallback family, is a 500.
    @Test func eachFamilyMapsDomainErrorsAtItsEdge() throws {
        struct RuleBroken: Error, HTTPErrorConvertible {
            var httpError: HTTPError { HTTPError(status: 409, code: "converted", message: "itself") }
        }
        struct Unknown: Error {}
        struct Family: ErrorRenderer {
            func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
                .json(["kind": .string(error.code)], status: error.status)
            }
            func httpError(for error: any Error) -> HTTPError? {
                error is RuleBroken ? HTTPError(status: 400, code: "rule_broken", message: "a rule") : nil
            }
        }
        var router = Router()
        router.add("GET", "/family/rule") { _ in throw RuleBroken() }
        router.add("GET", "/family/unknown") { _ in throw Unknown() }
        router.add("GET", "/other/rule") { _ in throw RuleBroken() }
        router.add("GET", "/other/unknown") { _ in throw Unknown() }
        router.setErrorRenderer(Family(), forPathPrefix: "/family/")
        func answer(_ path: String) -> (Int, String) {
            let response = router.respond(to: HTTPRequest(method: "GET", path: path)).response
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        #expect(answer("/family/rule") == (400, #"{"kind":"rule_broken"}"#))
        #expect(answer("/family/unknown") == (500, #"{"kind":"internal_error"}"#))
        #expect(answer("/other/rule").0 == 409)
        #expect(answer("/other/rule").1.contains(#""code":"converted""#))
        #expect(answer("/other/unknown").0 == 500)
    }
}

@Suite struct MediaTypeTests {
    /// The media type is the header's part before `;`, trimmed of spaces and tabs and lower-cased;
    /// nothing when that part is empty.
    @Test(
        arguments: [
            ("application/json", "application/json"), (" Application/JSON ; charset=utf-8", "application/json"),
            ("\tapplication/x-www-form-urlencoded\t", "application/x-www-form-urlencoded"), (";", nil), ("", nil),
            ("  ;a=b", nil), ("TEXT/plain;", "text/plain"),
        ] as [(String, String?)])
    func readsTheTypeBeforeItsParameters(header: String, expected: String?) {
        let request = HTTPRequest(method: "POST", path: "/", headers: HTTPHeaders([("Content-Type", header)]))
        #expect(request.mediaType == expected)
    }

    @Test func isNilWithoutTheHeader() {
        #expect(HTTPRequest(method: "POST", path: "/").mediaType == nil)
    }
}

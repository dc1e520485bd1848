import Testing

@testable import HTTPServer

@Suite struct RouterTests {
    func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/keys/{keyId}") { request in .text(request.pathParameters["keyId"] ?? "") }
        router.add("PUT", "/keys/{keyId}") { _ in .text("put") }
        router.add("POST", "/sessions/challenges") { _ in .text("literal") }
        router.add("POST", "/sessions/{id}") { _ in .text("parameter") }
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
}

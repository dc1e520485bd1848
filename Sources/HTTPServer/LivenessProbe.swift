#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A liveness probe answered before routing: `GET` (or `HEAD`) of one path with no query and no body gets the
/// answer its route gave once at start, with the request's own `Request-Id`. It skips the router, the request
/// log, the access log and the per-route metrics (one counter, `onramp_http_probes_total`, counts it): a load
/// balancer asking several times a second fills none of them, and the answer costs the least the server can
/// do. Anything else on the path — another method, a query, a body — is routed as usual.
struct LivenessProbe: Sendable {
    let path: String
    private let status: Int
    private let headers: [(String, String)]
    private let body: [UInt8]

    /// The probe at `path`, answering what `router` answers a `GET` of it; nil unless that is a 2xx.
    init?(path: String, router: Router) {
        let (answer, _) = router.respond(to: HTTPRequest(method: "GET", path: path))
        guard (200..<300).contains(answer.status) else { return nil }
        self.path = path
        status = answer.status
        headers = answer.headers.filter { $0.0.lowercased() != "request-id" }
        body = answer.body
    }

    /// Whether a request for `url` with `method` (as the library hands them over) is this probe.
    func matches(method: UnsafePointer<CChar>, url: UnsafePointer<CChar>) -> Bool {
        (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) && path.withCString { strcmp(url, $0) == 0 }
    }

    /// The probe's answer for the request `requestId`.
    func response(requestId: String) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: HTTPHeaders(headers), body: body)
        response.headers.set("Request-Id", requestId)
        return response
    }
}

import OnrampWire

/// A failure that becomes an HTTP response at the server edge, rendered in the error shape of the
/// route family that produced it (see ``ErrorRenderer``).
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// A stable machine-readable code (`invalid_request`, `parameter_missing`, …).
    public var code: String
    /// A message for the developer; never contains secrets.
    public var message: String
    /// The offending parameter, when there is one.
    public var param: String?
    /// A coarser error class used by some families (Stripe's `type`, e.g. `invalid_request_error`).
    public var type: String?
    /// A finer stable code beside ``code`` (the App Attest verifier's failure, `counter_not_increased`),
    /// for families whose shape carries one.
    public var reason: String?
    /// Extra response headers (`Allow` on 405, `Retry-After` on 429 or 503).
    public var headers: [String: String]

    /// Creates an error.
    public init(
        status: Int, code: String, message: String, param: String? = nil, type: String? = nil,
        reason: String? = nil, headers: [String: String] = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.param = param
        self.type = type
        self.reason = reason
        self.headers = headers
    }

    public var description: String { "\(status) \(code): \(message)" }

    /// No route has this path.
    public static func notFound(path: String) -> HTTPError {
        HTTPError(status: 404, code: "not_found", message: "No route for this path.")
    }

    /// The path exists but not with this method.
    public static func methodNotAllowed(allowed: [String]) -> HTTPError {
        HTTPError(
            status: 405, code: "method_not_allowed",
            message: "Method not allowed; use \(allowed.joined(separator: ", ")).",
            headers: ["Allow": allowed.joined(separator: ", ")])
    }

    /// The body exceeds the configured limit.
    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(status: 413, code: "payload_too_large", message: "The request body exceeds \(limit) bytes.")
    }

    /// The URL exceeds the configured limit.
    public static func uriTooLong(limit: Int) -> HTTPError {
        HTTPError(status: 414, code: "uri_too_long", message: "The request URL exceeds \(limit) bytes.")
    }

    /// The query has more arguments than the configured limit.
    public static func tooManyQueryParameters(limit: Int) -> HTTPError {
        HTTPError(
            status: 414, code: "too_many_query_parameters",
            message: "The request URL has more than \(limit) query parameters.")
    }

    /// The request line and headers together exceed the configured limit.
    public static func headerFieldsTooLarge(limit: Int) -> HTTPError {
        HTTPError(
            status: 431, code: "request_header_fields_too_large",
            message: "The request line and headers exceed \(limit) bytes.")
    }

    /// A handler failed unexpectedly; the details stay in the log.
    public static let internalError = HTTPError(
        status: 500, code: "internal_error", message: "An internal error occurred.")
}

/// One API family's error edge: turns the domain errors its handlers throw into ``HTTPError``s (the
/// one place where that family maps them), and an ``HTTPError`` into a response in its error shape.
public protocol ErrorRenderer: Sendable {
    /// The response for `error` on the request identified by `requestId`.
    func render(_ error: HTTPError, requestId: String) -> HTTPResponse

    /// The HTTP error this family answers for a domain error a handler threw, or `nil` to leave it to
    /// ``HTTPErrorConvertible`` (and, failing that, a 500). Nothing is mapped by default.
    func httpError(for error: any Error) -> HTTPError?
}

extension ErrorRenderer {
    public func httpError(for error: any Error) -> HTTPError? { nil }

    /// The HTTP error this family answers for `error`: an ``HTTPError`` as it is, a domain error as
    /// ``httpError(for:)`` maps it, an ``HTTPErrorConvertible`` as it converts itself; `nil` for anything
    /// else (which the router answers with a logged 500).
    public func resolve(_ error: any Error) -> HTTPError? {
        if let error = error as? HTTPError { return error }
        if let mapped = httpError(for: error) { return mapped }
        return (error as? any HTTPErrorConvertible)?.httpError
    }
}

/// Plain JSON errors for the server's own routes: `{"error":{"code","message"}}`.
public struct PlainErrorRenderer: ErrorRenderer {
    /// Creates the renderer.
    public init() {}

    public func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
        var members: [(String, JSONValue)] = [("code", .string(error.code)), ("message", .string(error.message))]
        if let param = error.param { members.append(("param", .string(param))) }
        members.append(("request_id", .string(requestId)))
        var response = HTTPResponse.json(.object([("error", .object(members))]), status: error.status)
        for (name, value) in error.headers { response.headers.set(name, value) }
        return response
    }
}

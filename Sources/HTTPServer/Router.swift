import OnrampRuntime
import OnrampWire

/// A request handler. It runs synchronously on one of the server's pool threads, so blocking
/// database calls are fine here.
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// Errors that know their HTTP form; the router renders them instead of answering 500.
public protocol HTTPErrorConvertible: Error {
    /// The HTTP error this error stands for.
    var httpError: HTTPError { get }
}

/// Routes requests by method and path pattern (`/v1/crypto/onramp_sessions/{id}/checkout`), answers
/// 404 and 405 with `Allow`, and renders errors in the shape of the family the path belongs to.
public struct Router: Sendable {
    private struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Segment]
        let handler: HTTPHandler
    }

    /// A registered route, as the OpenAPI description lists it.
    public struct Entry: Sendable {
        /// The method (`GET`, `POST`, …).
        public let method: String
        /// The path pattern, parameters written `{name}`.
        public let pattern: String
        /// What the route is documented as; nil for an undocumented route.
        public let operation: APIOperation?

        /// Describes a route.
        public init(method: String, pattern: String, operation: APIOperation?) {
            self.method = method
            self.pattern = pattern
            self.operation = operation
        }

        /// Describes the route `operation` states.
        public init(_ operation: APIOperation) {
            self.init(method: operation.method, pattern: operation.path, operation: operation)
        }
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// The result of looking up a path.
    public enum Match {
        /// A route matched; `route` is its pattern (the metrics label).
        case found(route: String, parameters: [String: String], handler: HTTPHandler)
        /// The path exists with other methods.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    private var routesBySegmentCount: [Int: [Route]] = [:]
    /// The routes without parameters by their path, in the order added: a path that is one of them is
    /// matched by one hash lookup (a literal route wins over any pattern with parameters anyway).
    private var literalRoutes: [String: [Route]] = [:]
    /// Every route in the order it was added.
    public private(set) var entries: [Entry] = []
    private var renderers: [(prefix: String, renderer: any ErrorRenderer)] = []
    private let fallbackRenderer: any ErrorRenderer

    /// Creates an empty router whose errors, outside any registered prefix, use `fallbackRenderer`.
    public init(fallbackRenderer: any ErrorRenderer = PlainErrorRenderer()) {
        self.fallbackRenderer = fallbackRenderer
    }

    /// Adds the route `operation` states (its method and path), answered by `handler`.
    public mutating func add(_ operation: APIOperation, _ handler: @escaping HTTPHandler) {
        add(operation.method, operation.path, operation, handler)
    }

    /// Adds an undocumented route (tests, examples). Parameters are written `{name}` and match one path
    /// segment.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping HTTPHandler) {
        add(method, pattern, nil, handler)
    }

    private mutating func add(
        _ method: String, _ pattern: String, _ operation: APIOperation?, _ handler: @escaping HTTPHandler
    ) {
        let segments = Router.split(pattern).map { part -> Segment in
            if part.hasPrefix("{") && part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
        let route = Route(method: method.uppercased(), pattern: pattern, segments: segments, handler: handler)
        routesBySegmentCount[segments.count, default: []].append(route)
        if !segments.contains(where: { if case .parameter = $0 { true } else { false } }) {
            literalRoutes[pattern, default: []].append(route)
        }
        entries.append(Entry(method: method.uppercased(), pattern: pattern, operation: operation))
        // Literal segments win over parameters: order candidates by where their first parameter sits.
        routesBySegmentCount[segments.count]!.sort { Router.specificity($0.segments) > Router.specificity($1.segments) }
    }

    /// Renders errors of paths starting with `prefix` with `renderer` (the longest prefix wins).
    public mutating func setErrorRenderer(_ renderer: any ErrorRenderer, forPathPrefix prefix: String) {
        renderers.append((prefix, renderer))
        renderers.sort { $0.prefix.count > $1.prefix.count }
    }

    /// The renderer for errors on `path`.
    public func errorRenderer(forPath path: String) -> any ErrorRenderer {
        renderers.first(where: { path.hasPrefix($0.prefix) })?.renderer ?? fallbackRenderer
    }

    /// Looks up `method` and the raw (still percent-encoded) `path`.
    public func match(method: String, path: String) -> Match {
        let lookupMethod = method == "HEAD" ? "GET" : method
        // A path that is a literal route is that resource: a pattern it also fits (`/details/{id}` for
        // `/details/list`) does not answer its other methods, and `Allow` lists only its own.
        if let literal = literalRoutes[path] {
            if let route = literal.first(where: { $0.method == lookupMethod }) {
                return .found(route: route.pattern, parameters: [:], handler: route.handler)
            }
            return .methodNotAllowed(
                allowed: literal.map(\.method).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        }
        let parts = Router.split(path)
        guard let candidates = routesBySegmentCount[parts.count] else { return .notFound }
        var allowed: [String] = []
        for route in candidates {
            guard let parameters = Router.bind(route.segments, to: parts) else { continue }
            if route.method == lookupMethod {
                return .found(route: route.pattern, parameters: parameters, handler: route.handler)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    /// Runs the request through the matching handler and renders any error. Returns the response and
    /// the route label for metrics and logs.
    public func respond(to request: HTTPRequest) -> (response: HTTPResponse, route: String) {
        var request = request
        let label: String
        var response: HTTPResponse
        switch match(method: request.method, path: request.path) {
        case .found(let route, let parameters, let handler):
            label = route
            request.pathParameters = parameters
            do {
                response = try handler(request)
            } catch {
                let renderer = errorRenderer(forPath: request.path)
                let httpError: HTTPError
                if let resolved = renderer.resolve(error) {
                    httpError = resolved
                    if httpError.status >= 500, !(error is HTTPError) {
                        // The store's own description names the failure, never values or secrets.
                        AccessLog.shared.error(
                            "\(error) in \(route) status=\(httpError.status) request_id=\(request.requestId)")
                    }
                } else {
                    AccessLog.shared.error("unhandled \(type(of: error)) in \(route) request_id=\(request.requestId)")
                    httpError = .internalError
                }
                RequestNotes.current?.noteRefusal(httpError)
                response = renderer.render(httpError, requestId: request.requestId)
            }
        case .methodNotAllowed(let allowed):
            label = "method_not_allowed"
            response = render(.methodNotAllowed(allowed: allowed), for: request)
        case .notFound:
            label = "not_found"
            response = render(.notFound(path: request.path), for: request)
        }
        response.headers.set("Request-Id", request.requestId)
        return (response, label)
    }

    /// Renders `error` for `request` in its path's family, with the `Request-Id` header.
    public func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        RequestNotes.current?.noteRefusal(error)
        var response = errorRenderer(forPath: request.path).render(error, requestId: request.requestId)
        response.headers.set("Request-Id", request.requestId)
        return response
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    private static func specificity(_ segments: [Segment]) -> Int {
        segments.firstIndex(where: { if case .parameter = $0 { return true } else { return false } })
            ?? segments.count
    }

    private static func bind(_ segments: [Segment], to parts: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard part == text else { return nil }
            case .parameter(let name):
                guard !part.isEmpty, let decoded = PercentEncoding.decode(part) else { return nil }
                parameters[name] = decoded
            }
        }
        return parameters
    }
}

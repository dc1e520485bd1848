import HTTPServer
import OnrampServices
import OnrampWire

/// Registers Stripe-style routes: key authentication, the documented query limits, refusal of undocumented
/// body parameters (`parameter_unknown`, as Stripe answers), `Idempotency-Key` on POST, JSON responses.
struct StripeRoutes: Sendable {
    /// The handler of a Stripe-style route: the request, its caller, the parsed body.
    typealias Handler = @Sendable (HTTPRequest, StripeCaller, JSONValue) throws -> JSONValue
    /// A handler that writes its whole response (a route whose answer carries a header of its own).
    typealias ResponseHandler = @Sendable (HTTPRequest, StripeCaller, JSONValue) throws -> HTTPResponse

    let context: ServerContext

    /// A route that needs the secret key (`sk_…`).
    func server(
        _ router: inout Router, _ operation: APIOperation, _ handler: @escaping Handler
    ) {
        add(&router, operation, allowPublishable: false) { .json(try handler($0, $1, $2)) }
    }

    /// A route the client SDK calls with the publishable key (`pk_…`; the secret key works too).
    func client(
        _ router: inout Router, _ operation: APIOperation, _ handler: @escaping Handler
    ) {
        add(&router, operation, allowPublishable: true) { .json(try handler($0, $1, $2)) }
    }

    /// A client route that also takes a consumer's link session key (`lsk_…`, ``StripeCaller/linkSessionCustomer``).
    func linkSession(
        _ router: inout Router, _ operation: APIOperation, _ handler: @escaping Handler
    ) {
        add(&router, operation, allowPublishable: true, allowLinkSessionKey: true) {
            .json(try handler($0, $1, $2))
        }
    }

    /// A client route whose handler writes the whole response.
    func client(
        _ router: inout Router, _ operation: APIOperation, responding handler: @escaping ResponseHandler
    ) {
        add(&router, operation, allowPublishable: true, handler)
    }

    private func add(
        _ router: inout Router, _ operation: APIOperation, allowPublishable: Bool,
        allowLinkSessionKey: Bool = false, _ handler: @escaping ResponseHandler
    ) {
        let context = self.context
        let limits = QueryParameterLimits(parameters: operation.query)
        let documented = DocumentedParameters(operation)
        router.add(operation) { request in
            let caller = try StripeCaller.authenticate(
                request, context: context, allowPublishable: allowPublishable, allowLinkSessionKey: allowLinkSessionKey)
            RequestNotes.current?.projectId = caller.projectId
            if let violation = limits.violation(in: request) {
                throw StripeErrors.invalid(
                    violation.missing ? "parameter_missing" : "parameter_invalid", violation.message,
                    param: violation.parameter)
            }
            if caller.publishable, let limiter = context.publishableKeyRateLimiter,
                !limiter.allow(request.remoteAddress, now: context.clock.now().timeIntervalSince1970)
            {
                throw StripeErrors.rateLimited(retryAfterSeconds: limiter.retryAfterSeconds())
            }
            // A test-mode caller acts in its project's time (its test clock); a live one in real time.
            return try TestClocks.bound(offsetMilliseconds: caller.clockOffsetMilliseconds) {
                try IdempotencyKeys(context: context).run(request, caller: caller) {
                    let body = try Self.parameters(of: request)
                    if let unknown = documented.unknown(in: body) {
                        throw StripeErrors.invalid(
                            "parameter_unknown", "Received unknown parameter: \(String(unknown.utf8.prefix(64)) ?? "")",
                            param: String(unknown.utf8.prefix(64)))
                    }
                    return try handler(request, caller, body)
                }
            }
        }
    }

    /// The request's body parameters: none for `GET` (its parameters are the query's), the body otherwise,
    /// and for a `DELETE` without a body its query (stripe-android's `ApiRequest` puts a DELETE's parameters
    /// in the query, as for a GET), decoded like a form.
    static func parameters(of request: HTTPRequest) throws -> JSONValue {
        switch request.method {
        case "GET": return .object([])
        case "DELETE" where request.body.isEmpty:
            let text = request.query.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }
            do {
                return try FormDecoder().decode(text.joined(separator: "&"))
            } catch {
                throw StripeErrors.invalid(
                    "parameter_invalid", "The query is malformed: \(error.message).", param: error.key)
            }
        default: return try request.parsedBody()
        }
    }
}

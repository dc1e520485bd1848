import OnrampWire

/// One HTTP request as the router and handlers see it. The body is complete and within the size limit.
public struct HTTPRequest: Sendable {
    /// The method, upper case (`GET`, `POST`, …).
    public var method: String
    /// The path exactly as received (still percent-encoded), without the query.
    public var path: String
    /// The query parameters, percent-decoded, in order.
    public var query: [(String, String)]
    /// The header fields.
    public var headers: HTTPHeaders
    /// The raw body.
    public var body: [UInt8]
    /// Parameters captured by the matched route, percent-decoded (a `%2F` becomes `/`).
    public var pathParameters: [String: String]
    /// The id sent back in the `Request-Id` header and written to the access log.
    public var requestId: String
    /// The client's IP address as text (empty when unknown), for rate limiting.
    public var remoteAddress: String = ""

    /// Creates a request.
    public init(
        method: String, path: String, query: [(String, String)] = [], headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], pathParameters: [String: String] = [:], requestId: String = RequestId.make()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.pathParameters = pathParameters
        self.requestId = requestId
    }

    /// A request for `target` as a request line carries it (`/path?query`): the path kept as sent, the
    /// query decoded as the server decodes it.
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        let queryStart = target.firstIndex(of: "?")
        self.init(
            method: method, path: String(target[..<(queryStart ?? target.endIndex)]),
            query: queryStart.map { Self.decodeQuery(String(target[target.index(after: $0)...])) } ?? [],
            headers: headers, body: body)
    }

    /// The query's `name=value` pairs (a pair without `=` has an empty value), percent-decoded with `+` as
    /// a space. A pair that does not decode is dropped rather than guessed at.
    static func decodeQuery(_ query: String) -> [(String, String)] {
        query.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(parts[0], plusAsSpace: true),
                let value = PercentEncoding.decode(parts.count > 1 ? parts[1] : "", plusAsSpace: true)
            else { return nil }
            return (name, value)
        }
    }

    /// The first query parameter called `name`.
    public func queryValue(_ name: String) -> String? {
        query.first(where: { $0.0 == name })?.1
    }

    /// The media type of the body without parameters, lower case (`application/json`).
    public var mediaType: String? {
        guard let header = headers["Content-Type"] else { return nil }
        // Read as bytes: a media type is an ASCII token, so no character (grapheme) walk is needed.
        let utf8 = header.utf8
        var type = utf8[..<(utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex)]
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while let first = type.first, isSpace(first) { type = type.dropFirst() }
        while let last = type.last, isSpace(last) { type = type.dropLast() }
        guard !type.isEmpty else { return nil }
        let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
        return String(decoding: type.map { upper.contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The body parsed as JSON; an empty body is an empty object.
    public func jsonBody(parser: JSONParser = JSONParser()) throws(HTTPError) -> JSONValue {
        if body.isEmpty { return .object([]) }
        do {
            return try parser.parse(body)
        } catch {
            throw HTTPError(status: 400, code: "invalid_json", message: "The request body is not valid JSON: \(error).")
        }
    }

    /// The body parsed as an `application/x-www-form-urlencoded` form with bracket nesting.
    public func formBody(decoder: FormDecoder = FormDecoder()) throws(HTTPError) -> JSONValue {
        guard let text = UTF8Text.string(body) else {
            throw HTTPError(status: 400, code: "invalid_form", message: "The request body is not valid UTF-8.")
        }
        do {
            return try decoder.decode(text)
        } catch {
            throw HTTPError(
                status: 400, code: "invalid_form", message: "The form body is malformed: \(error.message).",
                param: error.key)
        }
    }

    /// The body parsed by its media type: JSON for `application/json` (or no type and a body starting
    /// with `{`), a form for `application/x-www-form-urlencoded`; other types are refused with 415.
    public func parsedBody() throws(HTTPError) -> JSONValue {
        switch mediaType {
        case "application/json": return try jsonBody()
        case "application/x-www-form-urlencoded": return try formBody()
        case nil where body.isEmpty: return .object([])
        case nil where body.first == UInt8(ascii: "{"): return try jsonBody()
        case nil: return try formBody()
        default:
            throw HTTPError(
                status: 415, code: "unsupported_media_type",
                message: "Send application/json or application/x-www-form-urlencoded.")
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}

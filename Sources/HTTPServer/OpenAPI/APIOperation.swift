import OnrampWire

/// One route, stated once: its method and path, its name, who may call it, what it takes and what it
/// answers. The router registers a handler under it (``Router/add(_:_:)``) and the OpenAPI description is
/// built from it. Path parameters come from the path's pattern (`{id}`); everything else is declared.
public struct APIOperation: Sendable {
    /// The method (`GET`, `POST`, …).
    public var method: String
    /// The path pattern, parameters written `{name}`.
    public var path: String
    /// The `operationId`, unique across the server.
    public var id: String
    /// One line for readers of the document.
    public var summary: String
    /// The API family the operation belongs to (the document's tag).
    public var tag: String
    /// The accepted ways to authenticate: any one requirement, each naming security schemes that
    /// must all be present. Empty: the route needs no credentials.
    public var security: [[String]]
    /// Query parameters.
    public var query: [APIParameter]
    /// Request headers the route reads (beyond authentication).
    public var headers: [APIParameter]
    /// The request body, when the route reads one.
    public var body: APIBody?
    /// The answers, by status.
    public var responses: [APIResponse]

    /// The status a success answers with: the first documented 2xx, else 200.
    public var successStatus: Int {
        responses.lazy.compactMap { Int($0.status) }.first { (200..<300).contains($0) } ?? 200
    }

    /// `body` as this operation's success answer: JSON with ``successStatus``, so a handler never restates
    /// the status its operation documents.
    public func success(_ body: JSONValue) -> HTTPResponse {
        .json(body, status: successStatus)
    }

    /// `object` as this operation's success answer, in ``successStatus``.
    public func success(_ object: some WireObject) -> HTTPResponse {
        .json(object, status: successStatus)
    }

    /// Creates the operation of `route`, written `"METHOD /path/{parameter}"`.
    public init(
        _ route: String, id: String, summary: String, tag: String, security: [[String]] = [],
        query: [APIParameter] = [], headers: [APIParameter] = [], body: APIBody? = nil, responses: [APIResponse]
    ) {
        let parts = route.split(separator: " ", maxSplits: 1)
        precondition(
            parts.count == 2 && parts[1].hasPrefix("/") && parts[0].allSatisfy(\.isUppercase),
            "a route is written \"METHOD /path\", not \"\(route)\"")
        self.method = String(parts[0])
        self.path = String(parts[1])
        self.id = id
        self.summary = summary
        self.tag = tag
        self.security = security
        self.query = query
        self.headers = headers
        self.body = body
        self.responses = responses
    }
}

/// A query or header parameter.
public struct APIParameter: Sendable {
    /// The parameter's name.
    public var name: String
    /// Its value's schema.
    public var schema: APISchema
    /// Whether the route refuses a request without it.
    public var required: Bool

    /// Creates a parameter.
    public init(_ name: String, _ schema: APISchema = .string, required: Bool = false) {
        self.name = name
        self.schema = schema
        self.required = required
    }
}

/// A request body: its media type and schema.
public struct APIBody: Sendable {
    /// The media type (`application/json`, `application/x-www-form-urlencoded`).
    public var contentType: String
    /// The body's schema.
    public var schema: APISchema
    /// Whether the route refuses a request without a body.
    public var required: Bool

    /// Creates a body.
    public init(contentType: String, schema: APISchema, required: Bool = true) {
        self.contentType = contentType
        self.schema = schema
        self.required = required
    }

    /// A JSON body.
    public static func json(_ schema: APISchema, required: Bool = true) -> APIBody {
        APIBody(contentType: "application/json", schema: schema, required: required)
    }

    /// A URL-encoded form body.
    public static func form(_ schema: APISchema, required: Bool = true) -> APIBody {
        APIBody(contentType: "application/x-www-form-urlencoded", schema: schema, required: required)
    }

    /// A `multipart/form-data` body (a file upload).
    public static func multipart(_ schema: APISchema) -> APIBody {
        APIBody(contentType: "multipart/form-data", schema: schema, required: true)
    }
}

/// One documented answer.
public struct APIResponse: Sendable {
    /// The status (`"200"`), a range (`"4XX"`) or `"default"`.
    public var status: String
    /// What the answer means.
    public var description: String
    /// The media type of the body; nil for an answer without one.
    public var contentType: String?
    /// The body's schema.
    public var schema: APISchema?
    /// Response headers the answer carries.
    public var headers: [APIParameter]

    /// Creates a response.
    public init(
        status: String, description: String, contentType: String? = nil, schema: APISchema? = nil,
        headers: [APIParameter] = []
    ) {
        self.status = status
        self.description = description
        self.contentType = contentType
        self.schema = schema
        self.headers = headers
    }

    /// A JSON answer.
    public static func json(_ status: Int, _ description: String, _ schema: APISchema) -> APIResponse {
        APIResponse(status: String(status), description: description, contentType: "application/json", schema: schema)
    }
}

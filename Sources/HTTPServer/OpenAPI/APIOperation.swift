import OnrampWire

/// What the OpenAPI description says of one route: its name, who may call it, what it takes and what
/// it answers. Path parameters come from the route's pattern (`{id}`); everything else is declared.
public struct APIOperation: Sendable {
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

    /// Creates an operation.
    public init(
        id: String, summary: String, tag: String, security: [[String]] = [], query: [APIParameter] = [],
        headers: [APIParameter] = [], body: APIBody? = nil, responses: [APIResponse]
    ) {
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

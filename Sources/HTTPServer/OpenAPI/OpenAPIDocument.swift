import OnrampWire

/// An OpenAPI 3.1 description generated from a router's routes: one operation per route, its path
/// parameters read from the pattern, the rest from the route's ``APIOperation``.
public struct OpenAPIDocument: Sendable {
    /// The document's `info.title`.
    public var title: String
    /// The document's `info.version`.
    public var version: String
    /// The document's `info.description`.
    public var summary: String
    /// Shared schemas, referenced as `#/components/schemas/<name>`.
    public var schemas: [(name: String, schema: APISchema)]
    /// The security schemes operations name, as OpenAPI objects.
    public var securitySchemes: [(name: String, scheme: JSONValue)]

    /// Creates a document; ``json(routes:)`` renders it for a router's routes.
    public init(
        title: String, version: String, summary: String, schemas: [(name: String, schema: APISchema)] = [],
        securitySchemes: [(name: String, scheme: JSONValue)] = []
    ) {
        self.title = title
        self.version = version
        self.summary = summary
        self.schemas = schemas
        self.securitySchemes = securitySchemes
    }

    /// The description of the documented `routes`; an undocumented route is left out (the route-list
    /// test fails on it).
    public func json(routes: [Router.Entry]) -> JSONValue {
        var paths: [(String, [(String, JSONValue)])] = []
        for route in routes {
            guard let operation = route.operation else { continue }
            let entry = (route.method.lowercased(), Self.render(operation, pattern: route.pattern))
            if let index = paths.firstIndex(where: { $0.0 == route.pattern }) {
                paths[index].1.append(entry)
            } else {
                paths.append((route.pattern, [entry]))
            }
        }
        return [
            "openapi": "3.1.0",
            "info": ["title": .string(title), "version": .string(version), "description": .string(summary)],
            "paths": .object(paths.map { ($0.0, .object($0.1)) }),
            "components": [
                "schemas": .object(schemas.map { ($0.name, $0.schema.json) }),
                "securitySchemes": .object(securitySchemes.map { ($0.name, $0.scheme) }),
            ],
        ]
    }

    /// The path parameters of `pattern`, in order.
    public static func pathParameters(of pattern: String) -> [String] {
        pattern.split(separator: "/").compactMap { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? String(part.dropFirst().dropLast()) : nil
        }
    }

    private static func render(_ operation: APIOperation, pattern: String) -> JSONValue {
        var parameters: [JSONValue] = pathParameters(of: pattern).map {
            ["name": .string($0), "in": "path", "required": true, "schema": APISchema.string(minLength: 1).json]
        }
        parameters += operation.query.map { parameter($0, in: "query") }
        parameters += operation.headers.map { parameter($0, in: "header") }
        var members: [(String, JSONValue)] = [
            ("operationId", .string(operation.id)),
            ("summary", .string(operation.summary)),
            ("tags", [.string(operation.tag)]),
            ("security", .array(operation.security.map { names in .object(names.map { ($0, .array([])) }) })),
        ]
        if !parameters.isEmpty { members.append(("parameters", .array(parameters))) }
        if let body = operation.body {
            members.append(
                (
                    "requestBody",
                    [
                        "required": .bool(body.required),
                        "content": .object([(body.contentType, .object([("schema", body.schema.json)]))]),
                    ]
                ))
        }
        members.append(("responses", .object(operation.responses.map { ($0.status, render($0)) })))
        return .object(members)
    }

    private static func parameter(_ parameter: APIParameter, in location: String) -> JSONValue {
        [
            "name": .string(parameter.name), "in": .string(location), "required": .bool(parameter.required),
            "schema": parameter.schema.json,
        ]
    }

    private static func render(_ response: APIResponse) -> JSONValue {
        var members: [(String, JSONValue)] = [("description", .string(response.description))]
        if !response.headers.isEmpty {
            members.append(
                (
                    "headers",
                    .object(
                        response.headers.map {
                            ($0.name, ["required": .bool($0.required), "schema": $0.schema.json])
                        })
                ))
        }
        if let contentType = response.contentType {
            let schema = response.schema ?? .anyValue
            members.append(("content", .object([(contentType, .object([("schema", schema.json)]))])))
        }
        return .object(members)
    }
}

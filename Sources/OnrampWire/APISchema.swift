/// A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) describing one value on the wire.
///
/// Route tables declare their inputs and outputs with these, and ``OpenAPIDocument`` puts them into
/// the description served at `/openapi.json`. Build them from the static members:
/// `.object(["id": .string, "amount": .decimalString], required: ["id"])`.
public struct APISchema: Sendable {
    /// The schema as JSON.
    public let json: JSONValue

    /// Wraps a schema written out as JSON.
    public init(json: JSONValue) {
        self.json = json
    }

    /// Any string.
    public static let string = APISchema(json: ["type": "string"])
    /// Any boolean.
    public static let boolean = APISchema(json: ["type": "boolean"])
    /// Any integer.
    public static let integer = APISchema(json: ["type": "integer"])
    /// Any JSON value.
    public static let anyValue = APISchema(json: [:])
    /// Any JSON object.
    public static let anyObject = APISchema(json: ["type": "object"])
    /// An amount of money as a decimal string (`"10.50"`): money is never a JSON number here.
    public static let decimalString = APISchema.string(pattern: "^[0-9]+(\\.[0-9]+)?$")
    /// An RFC 3339 date-time string.
    public static let dateTime = APISchema.string(format: "date-time")
    /// A URI string.
    public static let uri = APISchema.string(format: "uri")
    /// An integer as the form decoder sends it (a Stripe form's `limit=10`).
    public static let integerString = APISchema.string(pattern: "^[0-9]+$")

    /// A string with limits.
    public static func string(
        minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil, format: String? = nil
    ) -> APISchema {
        var members: [(String, JSONValue)] = [("type", "string")]
        if let minLength { members.append(("minLength", .integer(minLength))) }
        if let maxLength { members.append(("maxLength", .integer(maxLength))) }
        if let pattern { members.append(("pattern", .string(pattern))) }
        if let format { members.append(("format", .string(format))) }
        return APISchema(json: .object(members))
    }

    /// One of a fixed set of strings.
    public static func enumeration(_ values: [String]) -> APISchema {
        APISchema(json: ["type": "string", "enum": .array(values.map { .string($0) })])
    }

    /// One fixed string (an object's `object: "crypto.onramp_session"`).
    public static func constant(_ value: String) -> APISchema {
        APISchema(json: ["const": .string(value)])
    }

    /// An integer within bounds.
    public static func integer(minimum: Int? = nil, maximum: Int? = nil) -> APISchema {
        var members: [(String, JSONValue)] = [("type", "integer")]
        if let minimum { members.append(("minimum", .integer(minimum))) }
        if let maximum { members.append(("maximum", .integer(maximum))) }
        return APISchema(json: .object(members))
    }

    /// An array of `items`.
    public static func array(_ items: APISchema, maxItems: Int? = nil) -> APISchema {
        var members: [(String, JSONValue)] = [("type", "array"), ("items", items.json)]
        if let maxItems { members.append(("maxItems", .integer(maxItems))) }
        return APISchema(json: .object(members))
    }

    /// An object with named `properties`, of which `required` must be present. `closed` refuses other
    /// members (the Stripe family answers an unknown parameter with 400; the CDP family ignores it).
    public static func object(
        _ properties: KeyValuePairs<String, APISchema>, required: [String] = [], closed: Bool = false
    ) -> APISchema {
        var members: [(String, JSONValue)] = [
            ("type", "object"), ("properties", .object(properties.map { ($0.key, $0.value.json) })),
        ]
        if !required.isEmpty { members.append(("required", .array(required.map { .string($0) }))) }
        if closed { members.append(("additionalProperties", false)) }
        return APISchema(json: .object(members))
    }

    /// An object whose members are all `values` (metadata, a map keyed by network).
    public static func map(_ values: APISchema) -> APISchema {
        APISchema(json: ["type": "object", "additionalProperties": values.json])
    }

    /// A schema of the description's `components/schemas`.
    public static func reference(_ name: String) -> APISchema {
        APISchema(json: ["$ref": .string("#/components/schemas/\(name)")])
    }

    /// Any one of `schemas`.
    public static func anyOf(_ schemas: [APISchema]) -> APISchema {
        APISchema(json: ["anyOf": .array(schemas.map(\.json))])
    }

    /// Every one of `schemas` (an object that extends another).
    public static func allOf(_ schemas: [APISchema]) -> APISchema {
        APISchema(json: ["allOf": .array(schemas.map(\.json))])
    }

    /// This schema, or `null`.
    public var nullable: APISchema {
        APISchema.anyOf([self, APISchema(json: ["type": "null"])])
    }

    /// This object schema with the named properties' schemas replaced: what a server states of a shared wire
    /// object beyond what the object itself can know (the values an enumeration takes). Naming a property the
    /// object does not have is a programming error.
    public func refining(_ properties: KeyValuePairs<String, APISchema>) -> APISchema {
        guard case .object(var members) = json, let index = members.firstIndex(where: { $0.0 == "properties" }),
            case .object(var fields) = members[index].1
        else { preconditionFailure("only an object schema can be refined") }
        for (name, schema) in properties {
            guard let field = fields.firstIndex(where: { $0.0 == name }) else {
                preconditionFailure("\(name) is not a property of the schema")
            }
            fields[field].1 = schema.json
        }
        members[index].1 = .object(fields)
        return APISchema(json: .object(members))
    }

    /// This object schema with more `properties`, of which `required` must also be present: an object that
    /// writes another's members beside its own.
    public func adding(_ properties: KeyValuePairs<String, APISchema>, required: [String]) -> APISchema {
        guard case .object(var members) = json, let index = members.firstIndex(where: { $0.0 == "properties" }),
            case .object(let fields) = members[index].1
        else { preconditionFailure("only an object schema can be extended") }
        members[index].1 = .object(fields + properties.map { ($0.key, $0.value.json) })
        let names = (json["required"]?.arrayValue ?? []) + required.map { JSONValue.string($0) }
        if let position = members.firstIndex(where: { $0.0 == "required" }) {
            members[position].1 = .array(names)
        } else {
            members.append(("required", .array(names)))
        }
        return APISchema(json: .object(members))
    }

    /// This schema with a description for readers of the document.
    public func described(_ text: String) -> APISchema {
        guard case .object(let members) = json else { return self }
        return APISchema(json: .object(members + [("description", .string(text))]))
    }
}

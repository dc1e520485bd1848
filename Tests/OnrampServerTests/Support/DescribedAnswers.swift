import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Holds an answer to what the OpenAPI description says of its route: a documented status, the
/// documented media type, and a JSON body valid against the documented schema. Every request a test
/// sends through `OnrampSandbox.exchange` is checked, so the whole suite (its success paths above
/// all, which the fuzzer's generated ids seldom reach) keeps `/openapi.json` true.
struct DescribedAnswers {
    let router: Router

    /// What is wrong with `response` to `method target`; empty when it conforms or when no
    /// documented route matched (a 404 or 405 of the router, answered before any route).
    func violations(method: String, target: String, response: RawHTTPClient.Response) -> [String] {
        let path = String(target.prefix { $0 != "?" })
        guard case .found(let pattern, _, _) = router.match(method: method, path: path),
            let operation = router.entries.first(where: {
                $0.pattern == pattern && $0.method == (method == "HEAD" ? "GET" : method)
            })?.operation
        else { return [] }
        let name = "\(method) \(pattern) → \(response.status)"
        let statuses = [String(response.status), "\(response.status / 100)XX", "default"]
        guard
            let documented = statuses.lazy.compactMap({ status in operation.responses.first { $0.status == status } })
                .first
        else { return ["\(name): the status is not documented"] }
        guard let contentType = documented.contentType else { return [] }
        let received = response.headers["content-type"].map { String($0.prefix { $0 != ";" }) }
        guard received == contentType else {
            return ["\(name): Content-Type \(received ?? "none"), documented \(contentType)"]
        }
        guard contentType == "application/json", method != "HEAD", let schema = documented.schema else { return [] }
        let body: JSONValue
        do {
            body = try JSONParser().parse(response.body)
        } catch {
            return ["\(name): the body is not JSON"]
        }
        return SchemaValidator(components: APIComponents.document.schemas).errors(of: body, against: schema.json)
            .map { "\(name): \($0)" }
    }
}

/// The JSON Schema (2020-12) keywords the route tables use, checked as `jsonschema` would: `type`,
/// `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `anyOf`, `allOf`,
/// `$ref` to `components/schemas`, `pattern`, `minLength`, `maxLength`, `minimum`, and the formats
/// `date-time`, `date` and `uri`. An unknown keyword fails, so a new one cannot go unchecked.
struct SchemaValidator {
    let components: [(name: String, schema: APISchema)]

    private static let annotations: Set<String> = ["description"]
    private static let patterns = Mutex<[String: Regex<AnyRegexOutput>]>([:])

    /// The ways `value` breaks `schema`, each naming where (`$.data.0.id`).
    func errors(of value: JSONValue, against schema: JSONValue, at location: String = "$") -> [String] {
        guard let keywords = schema.objectValue else { return ["\(location): the schema is not an object"] }
        var errors: [String] = []
        for (keyword, argument) in keywords {
            errors += check(keyword, argument, schema: schema, value: value, at: location)
        }
        return errors
    }

    private func check(
        _ keyword: String, _ argument: JSONValue, schema: JSONValue, value: JSONValue, at location: String
    ) -> [String] {
        switch keyword {
        case "type":
            let names = argument.arrayValue?.compactMap(\.stringValue) ?? [argument.stringValue ?? ""]
            return names.contains(where: { Self.has(value, type: $0) })
                ? [] : ["\(location): \(Self.describe(value)) is not \(names.joined(separator: " or "))"]
        case "properties":
            guard let members = value.objectValue else { return [] }
            return (argument.objectValue ?? []).flatMap { name, property in
                members.first { $0.0 == name }.map { errors(of: $0.1, against: property, at: "\(location).\(name)") }
                    ?? []
            }
        case "required":
            guard let members = value.objectValue else { return [] }
            return (argument.arrayValue ?? []).compactMap(\.stringValue).filter { name in
                !members.contains { $0.0 == name }
            }.map { "\(location): \($0) is required" }
        case "additionalProperties":
            guard let members = value.objectValue else { return [] }
            let declared = Set((schema["properties"]?.objectValue ?? []).map(\.0))
            let extra = members.filter { !declared.contains($0.0) }
            if argument.boolValue == false {
                return extra.map { "\(location): \($0.0) is not a documented member" }
            }
            return extra.flatMap { errors(of: $0.1, against: argument, at: "\(location).\($0.0)") }
        case "items":
            guard let elements = value.arrayValue else { return [] }
            return elements.enumerated().flatMap { errors(of: $1, against: argument, at: "\(location).\($0)") }
        case "enum":
            return (argument.arrayValue ?? []).contains(value)
                ? [] : ["\(location): \(Self.describe(value)) is not one of \(argument.serializedText)"]
        case "const":
            return value == argument ? [] : ["\(location): \(Self.describe(value)) is not \(argument.serializedText)"]
        case "anyOf":
            let alternatives = argument.arrayValue ?? []
            let failures = alternatives.map { errors(of: value, against: $0, at: location) }
            return failures.contains(where: \.isEmpty)
                ? [] : ["\(location): matches none of \(alternatives.count) alternatives (\(failures.flatMap { $0 }))"]
        case "allOf":
            return (argument.arrayValue ?? []).flatMap { errors(of: value, against: $0, at: location) }
        case "$ref":
            let name = argument.stringValue.map { String($0.dropFirst("#/components/schemas/".count)) } ?? ""
            guard let target = components.first(where: { $0.name == name })?.schema.json else {
                return ["\(location): no component \(argument.serializedText)"]
            }
            return errors(of: value, against: target, at: location)
        case "pattern":
            guard let text = value.stringValue, let source = argument.stringValue else { return [] }
            return Self.matches(text, source) ? [] : ["\(location): \"\(text)\" does not match \(source)"]
        case "minLength", "maxLength":
            guard let text = value.stringValue, let bound = argument.intValue else { return [] }
            let length = text.unicodeScalars.count
            let fits = keyword == "minLength" ? length >= bound : length <= bound
            return fits ? [] : ["\(location): a string of \(length) characters breaks \(keyword) \(bound)"]
        case "minimum":
            guard case .number(let text) = value, let number = Decimal(string: text), let bound = argument.intValue
            else { return [] }
            return number >= Decimal(bound) ? [] : ["\(location): \(text) is below \(bound)"]
        case "format":
            guard let text = value.stringValue, let format = argument.stringValue else { return [] }
            return Self.has(text, format: format) ? [] : ["\(location): \"\(text)\" is not a \(format)"]
        default:
            return Self.annotations.contains(keyword) ? [] : ["\(location): the validator does not know \(keyword)"]
        }
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            return true
        case ("integer", .number(let text)):
            return !text.contains(where: { ".eE".contains($0) })
        default:
            return false
        }
    }

    private static func has(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time":
            return matches(text, #"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#)
        case "date":
            return matches(text, #"^\d{4}-\d{2}-\d{2}$"#)
        case "uri":
            return matches(text, #"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$"#)
        default:
            return true
        }
    }

    private static func matches(_ text: String, _ source: String) -> Bool {
        let regex = patterns.withLock { cache -> Regex<AnyRegexOutput>? in
            if let compiled = cache[source] { return compiled }
            let compiled = try? Regex(source)
            cache[source] = compiled
            return compiled
        }
        guard let regex else { return false }
        return (try? regex.firstMatch(in: text)) != nil
    }

    private static func describe(_ value: JSONValue) -> String {
        let text = value.serializedText
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}

extension JSONValue {
    /// The value as compact JSON text, for messages.
    fileprivate var serializedText: String { String(decoding: serialized, as: UTF8.self) }

    /// An integer number's value.
    fileprivate var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}

import HTTPServer
import OnrampServices
import OnrampWire

/// The limits an operation documents for its query parameters (required, `enum`/`const`, `minLength`,
/// `maxLength`), enforced at the edge so the description and the server cannot disagree.
struct QueryParameterLimits: Sendable {
    let parameters: [APIParameter]

    /// A broken limit.
    struct Violation: Sendable {
        /// The parameter's name.
        let parameter: String
        /// For the developer: `"ui_mode must be one of headless."`.
        let message: String
        /// Whether the parameter is missing (rather than invalid).
        let missing: Bool
    }

    /// The first documented limit `request`'s query breaks.
    func violation(in request: HTTPRequest) -> Violation? {
        for parameter in parameters {
            guard let value = request.queryValue(parameter.name) else {
                guard parameter.required else { continue }
                return Violation(parameter: parameter.name, message: "Missing \(parameter.name).", missing: true)
            }
            if let reason = Self.violation(of: parameter.schema.json, by: value) {
                return Violation(parameter: parameter.name, message: "\(parameter.name) \(reason).", missing: false)
            }
        }
        return nil
    }

    private static func violation(of schema: JSONValue, by value: String) -> String? {
        if let allowed = schema["enum"]?.arrayValue?.compactMap(\.stringValue), !allowed.contains(value) {
            return "must be one of \(allowed.joined(separator: ", "))"
        }
        if let constant = schema["const"]?.stringValue, constant != value { return "must be \(constant)" }
        let length = value.utf8.count
        if let maximum = schema["maxLength"].flatMap(integer), length > maximum {
            return "is longer than \(maximum) bytes"
        }
        if let minimum = schema["minLength"].flatMap(integer), length < minimum {
            return "is shorter than \(minimum) bytes"
        }
        return nil
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let text) = value else { return nil }
        return Int(text)
    }
}

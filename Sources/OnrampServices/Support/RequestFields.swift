import OnrampCore
import OnrampWire

/// Reads and validates the fields of a parsed request body (JSON or form), throwing 400 errors in
/// a form every family renders: `code` is the family's invalid-request code, `param` names the field.
package struct RequestFields {
    package let body: JSONValue
    /// The code for an invalid field (`invalid_request` for CDP, `parameter_invalid` for Stripe…).
    package let invalidCode: String
    /// The code for a missing field.
    package let missingCode: String

    package init(_ body: JSONValue, invalidCode: String = "invalid_request", missingCode: String = "invalid_request") {
        self.body = body
        self.invalidCode = invalidCode
        self.missingCode = missingCode
    }

    /// The fields of a Stripe body: `parameter_invalid` and `parameter_missing` codes.
    package static func stripe(_ body: JSONValue) -> RequestFields {
        RequestFields(body, invalidCode: "parameter_invalid", missingCode: "parameter_missing")
    }

    package func invalid(_ field: String, _ message: String) -> FieldError {
        FieldError(status: 400, code: invalidCode, message: message, param: field)
    }

    /// Checks a text against ``FieldText``'s rule: at most `maxLength` UTF-8 bytes, no control characters.
    package func checkText(_ text: String, field: String, maxLength: Int, multiline: Bool = false) throws(FieldError) {
        switch FieldText.problem(in: text, maxBytes: maxLength, allowingLineBreaks: multiline) {
        case nil: return
        case .tooLong: throw invalid(field, "\(field) is longer than \(maxLength) bytes.")
        case .controlCharacter: throw invalid(field, "\(field) may not contain control characters.")
        }
    }

    /// A string field that must be present and non-empty, at most `maxLength` UTF-8 bytes.
    package func required(_ field: String, maxLength: Int = 256) throws(FieldError) -> String {
        guard let value = try optional(field, maxLength: maxLength), !value.isEmpty else {
            throw FieldError(status: 400, code: missingCode, message: "Missing required field \(field).", param: field)
        }
        return value
    }

    /// A string field that may be absent (or `null`), at most `maxLength` UTF-8 bytes (`multiline` free
    /// text may hold line breaks and tabs). Numbers are
    /// accepted as their exact text, so `25.00` and `"25.00"` read the same.
    package func optional(_ field: String, maxLength: Int = 256, multiline: Bool = false) throws(FieldError) -> String?
    {
        guard let value = lookup(field), !value.isNull else { return nil }
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        default: throw invalid(field, "\(field) must be a string.")
        }
        try checkText(text, field: field, maxLength: maxLength, multiline: multiline)
        return text
    }

    /// A boolean field (JSON boolean, or `"true"`/`"false"` in a form).
    package func optionalBool(_ field: String) throws(FieldError) -> Bool? {
        guard let value = lookup(field), !value.isNull else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: throw invalid(field, "\(field) must be a boolean.")
        }
    }

    /// A list of strings (JSON array or form list), at most `maxCount` entries.
    package func optionalList(_ field: String, maxCount: Int = 50, maxLength: Int = 256) throws(FieldError) -> [String]?
    {
        guard let value = lookup(field), !value.isNull else { return nil }
        guard case .array(let elements) = value, elements.count <= maxCount else {
            throw invalid(field, "\(field) must be a list of at most \(maxCount) strings.")
        }
        var result: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw invalid(field, "\(field) must be a list of strings.") }
            try checkText(text, field: field, maxLength: maxLength)
            result.append(text)
        }
        return result
    }

    /// A string-to-string map (`metadata`, `labels`) within Stripe's metadata limits: at most 50 keys of
    /// 1 to 40 bytes without control characters, values of at most 500 (line breaks allowed); `nil` when absent.
    package func optionalStringMap(_ field: String) throws(FieldError) -> OrderedStringMap? {
        guard let value = lookup(field), !value.isNull else { return nil }
        guard case .object(let members) = value, members.count <= 50, let map = OrderedStringMap(json: value),
            members.allSatisfy({ key, value in
                !key.isEmpty && FieldText.problem(in: key, maxBytes: 40) == nil
                    && (value.stringValue.map {
                        FieldText.problem(in: $0, maxBytes: 500, allowingLineBreaks: true) == nil
                    } ?? false)
            })
        else {
            throw invalid(
                field,
                "\(field) must map at most 50 keys (1 to 40 bytes, no control characters) to strings of at most 500 bytes."
            )
        }
        return map
    }

    /// A nested object as its own fields.
    package func object(_ field: String) throws(FieldError) -> RequestFields? {
        guard let value = lookup(field), !value.isNull else { return nil }
        guard case .object = value else { throw invalid(field, "\(field) must be an object.") }
        return RequestFields(value, invalidCode: invalidCode, missingCode: missingCode)
    }

    /// Fails when the body has members outside `allowed` (typos must not be silently ignored).
    package func rejectUnknown(allowed: Set<String>) throws(FieldError) {
        guard case .object(let members) = body else { throw invalid("body", "The request body must be an object.") }
        if let unknown = members.first(where: { !allowed.contains($0.0) }) {
            throw invalid(unknown.0, "Unknown field \(unknown.0).")
        }
    }

    private func lookup(_ field: String) -> JSONValue? {
        body[field]
    }

    /// The objects of list `field` (a JSON array, or a form's `field[0][…]` members with index keys, in index
    /// order), at most `maxCount`; none when it is absent.
    package func objects(_ field: String, maxCount: Int) throws(FieldError) -> [RequestFields] {
        guard let value = lookup(field), !value.isNull else { return [] }
        let elements: [JSONValue]
        switch value {
        case .array(let items): elements = items
        case .object(let members) where members.allSatisfy({ Int($0.0) != nil }):
            elements = members.sorted { Int($0.0) ?? 0 < Int($1.0) ?? 0 }.map(\.1)
        default: throw invalid(field, "\(field) must be a list.")
        }
        guard elements.count <= maxCount else { throw invalid(field, "\(field) holds at most \(maxCount).") }
        var objects: [RequestFields] = []
        for element in elements {
            guard element.objectValue != nil else { throw invalid(field, "Each of \(field) is an object.") }
            objects.append(RequestFields(element, invalidCode: invalidCode, missingCode: missingCode))
        }
        return objects
    }
}

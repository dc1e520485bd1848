/// A JSON document as a tree that keeps what money needs: numbers stay as their exact source text
/// (never converted to `Double`) and objects keep their key order, so output is deterministic.
///
/// Request bodies of both kinds (JSON and `application/x-www-form-urlencoded` with bracket nesting)
/// are parsed into this one type, so handlers validate them the same way.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its JSON text (for example `"25.00"` stays `25.00`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its members in the order they were written.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object (the last, when a name repeats); `nil` when absent or when this
    /// is not an object.
    ///
    /// A name of another length in UTF-8 is another name, as JSON compares names code point by code point
    /// (RFC 8259 §8.3), where Swift's `==` alone also matched a canonically equivalent spelling such as
    /// "\u{212A}" (KELVIN SIGN) for "K". It is also the fast test: a string knows its length, and `==`
    /// between two different strings takes the standard library's general comparison (counted with
    /// `bench/instructions.sh`: member lookups 58,323 → 22,973 instructions per Embedded pair).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        let length = key.utf8.count
        return members.last(where: { $0.0.utf8.count == length && $0.0 == key })?.1
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [(String, JSONValue)]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// A string, or `null` when `value` is `nil`.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// An integer number.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue {
        .number(String(value))
    }

    /// This object with `members` set: a member of the same name is replaced in place, a new one is added
    /// at the end. Anything but an object is returned unchanged.
    public func setting(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        guard case .object(var current) = self else { return self }
        for (key, value) in members {
            if let index = current.firstIndex(where: { $0.0 == key }) {
                current[index].1 = value
            } else {
                current.append((key, value))
            }
        }
        return .object(current)
    }
}

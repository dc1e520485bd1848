/// A decoded CBOR data item (RFC 8949), definite-length forms only.
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is -1 - n.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, entries in encoded order; keys are unique.
    case map([CBORMapEntry])
    /// Major type 6.
    case tagged(UInt64, CBORValue)
    /// `false` / `true`.
    case bool(Bool)
    /// `null`.
    case null
    /// `undefined`.
    case undefined
    /// Other simple values.
    case simple(UInt8)
    /// Half, single or double precision float.
    case float(Double)

    /// The value for a text key when this is a map.
    public subscript(key: String) -> CBORValue? {
        self[.text(key)]
    }

    /// The value for `key` when this is a map.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The bytes of a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The string of a text string.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The items of an array.
    public var arrayValue: [CBORValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The value of an integer that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): return value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: return nil
        }
    }

    /// A CBOR integer for `value`.
    public static func integer(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}

/// One map entry of a ``CBORValue/map(_:)``.
public struct CBORMapEntry: Sendable, Hashable {
    /// The key.
    public var key: CBORValue
    /// The value.
    public var value: CBORValue

    /// Creates an entry.
    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}

/// Encodes an `Encodable` value into a ``JSONValue``, so that a wire object's rendering comes from its
/// `CodingKeys` rather than a second spelling of its fields. Objects keep their members in the order they were
/// encoded (a synthesized `encode(to:)` follows the declaration), integers are written exactly, and a
/// ``JSONValue`` inside the value is taken as it is. No Foundation: the server, the SDKs and the tests share it.
public struct JSONValueEncoder: Sendable {
    /// What a `nil` optional becomes in a synthesized encoding (which calls `encodeIfPresent`).
    public enum NilEncoding: Sendable {
        /// The member is left out, as Foundation's `JSONEncoder` does.
        case omit
        /// The member is written as `null`, as Stripe's objects show an absent value.
        case null
    }

    /// What a `nil` optional becomes.
    public var nils: NilEncoding

    /// An encoder writing `nil` optionals as `nils` says.
    public init(nils: NilEncoding = .omit) {
        self.nils = nils
    }

    /// The JSON value of `value`.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        let root = EncodingNode()
        try root.encode(value, nils: nils)
        return root.value
    }
}

/// The encoder's tree, filled by containers that hold a node each; read back once as a ``JSONValue``.
private final class EncodingNode {
    enum Content {
        case unset
        case leaf(JSONValue)
        case object(keys: [String], members: [String: EncodingNode])
        case array([EncodingNode])
    }

    var content = Content.unset

    var value: JSONValue {
        switch content {
        case .unset: .object([])
        case .leaf(let value): value
        case .object(let keys, let members): .object(keys.map { ($0, members[$0]?.value ?? .null) })
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    /// Encodes `value` into this node: a ``JSONValue`` as it is, a dictionary keyed by strings with its keys
    /// sorted (a `Dictionary` encodes in hash order, which changes between runs), anything else through its
    /// `encode(to:)`.
    func encode(_ value: some Encodable, codingPath: [any CodingKey] = [], nils: JSONValueEncoder.NilEncoding)
        throws
    {
        if let json = value as? JSONValue {
            content = .leaf(json)
        } else if let dictionary = value as? [String: any Encodable] {
            content = .object(keys: [], members: [:])
            for key in dictionary.keys.sorted() {
                try member(key).encode(
                    dictionary[key]!, codingPath: codingPath + [NameKey(key)], nils: nils)
            }
        } else {
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath, nils: nils))
        }
    }

    /// This node's member `key`, made an object first when it is not one yet.
    func member(_ key: String) -> EncodingNode {
        var (keys, members) = objectParts()
        if let existing = members[key] { return existing }
        let node = EncodingNode()
        keys.append(key)
        members[key] = node
        content = .object(keys: keys, members: members)
        return node
    }

    /// A new element at the end, this node made an array first when it is not one yet.
    func appended() -> EncodingNode {
        var elements: [EncodingNode] = []
        if case .array(let existing) = content { elements = existing }
        let node = EncodingNode()
        elements.append(node)
        content = .array(elements)
        return node
    }

    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    private func objectParts() -> ([String], [String: EncodingNode]) {
        if case .object(let keys, let members) = content { return (keys, members) }
        return ([], [:])
    }
}

/// The `Encoder` handed to `encode(to:)`: its containers write into one node.
private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let nils: JSONValueEncoder.NilEncoding
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .unset = node.content { node.content = .object(keys: [], members: [:]) }
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath, nils: nils))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unset = node.content { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, nils: nils)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueNodeContainer(node: node, codingPath: codingPath, nils: nils)
    }
}

/// A JSON scalar for each of `Encoder`'s primitive types.
private enum Scalar {
    static func number(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    static func number(_ value: some BinaryFloatingPoint & LosslessStringConvertible, codingPath: [any CodingKey])
        throws -> JSONValue
    {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "JSON has no \(value)."))
        }
        return .number(value.description)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let nils: JSONValueEncoder.NilEncoding

    private func set(_ value: JSONValue, _ key: Key) { node.member(key.stringValue).content = .leaf(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try Scalar.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try Scalar.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(Scalar.number(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(Scalar.number(value), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try node.member(key.stringValue).encode(value, codingPath: codingPath + [key], nils: nils)
    }

    // A synthesized encoding writes optionals through these: `nil` is left out or written as `null`.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws { try present(value, key) }

    private mutating func present(_ value: (some Encodable)?, _ key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else if nils == .null {
            set(.null, key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key], nils: nils)
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key], nils: nils)
            .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath, nils: nils)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key], nils: nils)
    }
}

/// A dictionary's key as a coding key.
private struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// An array's index as a coding key.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let nils: JSONValueEncoder.NilEncoding
    var count: Int { node.count }

    private func append(_ value: JSONValue) { node.appended().content = .leaf(value) }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try Scalar.number(value, codingPath: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try Scalar.number(value, codingPath: nextPath)) }
    mutating func encode(_ value: Int) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: Int8) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: Int16) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: Int32) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: Int64) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: UInt) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: UInt8) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: UInt16) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: UInt32) throws { append(Scalar.number(value)) }
    mutating func encode(_ value: UInt64) throws { append(Scalar.number(value)) }

    mutating func encode(_ value: some Encodable) throws {
        let path = nextPath
        try node.appended().encode(value, codingPath: path, nils: nils)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path, nils: nils).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path, nils: nils).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path, nils: nils)
    }
}

private struct SingleValueNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let nils: JSONValueEncoder.NilEncoding

    private func set(_ value: JSONValue) { node.content = .leaf(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try Scalar.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try Scalar.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: Int8) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: Int16) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: Int32) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: Int64) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: UInt) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: UInt8) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: UInt16) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: UInt32) throws { set(Scalar.number(value)) }
    mutating func encode(_ value: UInt64) throws { set(Scalar.number(value)) }

    mutating func encode(_ value: some Encodable) throws {
        try node.encode(value, codingPath: codingPath, nils: nils)
    }
}

extension JSONValue: Encodable {
    /// Encodes the value. ``JSONValueEncoder`` takes it exactly as it is; another encoder (Foundation's
    /// `JSONEncoder`) gets a number as an integer when it is one and as a `Double` otherwise, which may round.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try container.encode(integer)
            } else if let unsigned = UInt64(text) {
                try container.encode(unsigned)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: NameKey.self)
            for (name, value) in members { try container.encode(value, forKey: NameKey(name)) }
        }
    }
}

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
        /// The member is written as `null`, but for members of these names, which are left out (a member the
        /// real service leaves out when it has no value, in an object that otherwise writes `null`s).
        case nullLeavingOut(Set<String>)
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

/// The encoder's tree, filled by containers that hold a node each; read back once as a ``JSONValue``. Its
/// members and elements live in arrays the node owns, so adding one never copies the others.
private final class EncodingNode {
    private enum Kind { case unset, leaf, object, array }

    /// A member or element: a finished value kept in place, or a node still being filled.
    private enum Child {
        case leaf(JSONValue)
        case node(EncodingNode)

        var value: JSONValue {
            switch self {
            case .leaf(let value): value
            case .node(let node): node.value
            }
        }
    }

    private var kind = Kind.unset
    private var leaf = JSONValue.null
    /// An object's member names, in order (an array leaves it empty).
    private var keys: [String] = []
    /// An object's member values or an array's elements, in order.
    private var children: [Child] = []

    var value: JSONValue {
        switch kind {
        case .unset: .object([])
        case .leaf: leaf
        case .object: .object(zip(keys, children).map { ($0, $1.value) })
        case .array: .array(children.map(\.value))
        }
    }

    /// Makes this node the scalar or other finished value `value`.
    func set(_ value: JSONValue) {
        kind = .leaf
        leaf = value
    }

    /// Makes this node an object, when it is not one yet.
    func makeObject() {
        guard kind != .object else { return }
        (kind, keys, children) = (.object, [], [])
    }

    /// Makes this node an array, when it is not one yet.
    func makeArray() {
        guard kind != .array else { return }
        (kind, keys, children) = (.array, [], [])
    }

    /// Sets member `key` to the finished value `value` (a key encoded twice keeps its first place and its last
    /// value).
    func setMember(_ key: String, _ value: JSONValue) {
        makeObject()
        if let index = keys.lastIndex(of: key) {
            children[index] = .leaf(value)
        } else {
            keys.append(key)
            children.append(.leaf(value))
        }
    }

    /// This node's member `key`, as a node to fill.
    func member(_ key: String) -> EncodingNode {
        makeObject()
        let index = keys.lastIndex(of: key)
        if let index, case .node(let existing) = children[index] { return existing }
        let node = EncodingNode()
        if let index {
            children[index] = .node(node)
        } else {
            keys.append(key)
            children.append(.node(node))
        }
        return node
    }

    /// Appends the finished value `value`.
    func appendLeaf(_ value: JSONValue) {
        makeArray()
        children.append(.leaf(value))
    }

    /// A new element at the end, as a node to fill.
    func appended() -> EncodingNode {
        makeArray()
        let node = EncodingNode()
        children.append(.node(node))
        return node
    }

    var count: Int { kind == .array ? children.count : 0 }

    /// Encodes `value` into this node: a ``JSONValue`` as it is, a dictionary keyed by strings with its keys
    /// sorted (a `Dictionary` encodes in hash order, which changes between runs), anything else through its
    /// `encode(to:)`.
    func encode<Value: Encodable>(
        _ value: Value, codingPath: [any CodingKey] = [], nils: JSONValueEncoder.NilEncoding
    ) throws {
        // Type checks rather than casts: a cast of every value costs more than encoding most of them.
        if Value.self == JSONValue.self, let json = value as? JSONValue {
            set(json)
        } else if Value.self is any StringKeyedDictionary.Type, let dictionary = value as? any StringKeyedDictionary {
            makeObject()
            for (key, element) in dictionary.sortedEncodableMembers {
                try member(key).encode(element, codingPath: codingPath + [NameKey(key)], nils: nils)
            }
        } else {
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath, nils: nils))
        }
    }
}

/// The `Encoder` handed to `encode(to:)`: its containers write into one node.
private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let nils: JSONValueEncoder.NilEncoding
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath, nils: nils))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
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

    private func set(_ value: JSONValue, _ key: Key) { node.setMember(key.stringValue, value) }

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

    // A synthesized encoding writes optionals through these: `nil` is left out or written as `null`; a value
    // goes to its type's own `encode`.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }

    private func absent(_ key: Key) {
        switch nils {
        case .omit: break
        case .null: set(.null, key)
        case .nullLeavingOut(let names): if !names.contains(key.stringValue) { set(.null, key) }
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

/// A dictionary keyed by strings, whose members the encoder writes in key order.
private protocol StringKeyedDictionary {
    var sortedEncodableMembers: [(String, any Encodable)] { get }
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    var sortedEncodableMembers: [(String, any Encodable)] {
        keys.sorted().map { ($0, self[$0]!) }
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

    private func append(_ value: JSONValue) { node.appendLeaf(value) }
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

    private func set(_ value: JSONValue) { node.set(value) }

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

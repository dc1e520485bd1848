/// A JSON object kept in the order its members were given: Stripe's `metadata`, CDP's `labels` and
/// `target.headers` (``OrderedStringMap``), a quote list's networks. A Swift dictionary would lose that order (and
/// its own is not even stable between runs), so an object a partner stored would come back shuffled.
public struct OrderedMap<Value: Sendable>: Sendable, ExpressibleByDictionaryLiteral {
    /// One member.
    public struct Entry: Sendable {
        /// The member's name.
        public var key: String
        /// Its value.
        public var value: Value
    }

    /// The members, in order; no two share a key.
    public private(set) var entries: [Entry]

    /// The map of `pairs`, in their order; a repeated key keeps its first place and its last value.
    public init(_ pairs: [(String, Value)]) {
        entries = []
        for (key, value) in pairs { self[key] = value }
    }

    /// The map of `elements`, in their order.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }

    /// Whether the map has no members.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value under `key`; setting one keeps the key's place, or appends it; setting `nil` removes it.
    public subscript(key: String) -> Value? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The map as a dictionary (which forgets the order).
    public var dictionary: [String: Value] {
        Dictionary(entries.map { ($0.key, $0.value) }) { $1 }
    }

    /// Any member name.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A JSON object of strings, in order.
public typealias OrderedStringMap = OrderedMap<String>

extension OrderedMap.Entry: Equatable where Value: Equatable {}

extension OrderedMap: Equatable where Value: Equatable {
    /// Whether both hold the same members, in whatever order: JSON objects are equal so, and Foundation's
    /// `JSONDecoder` does not keep a document's order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.count == rhs.entries.count && lhs.dictionary == rhs.dictionary
    }
}

extension OrderedMap: Encodable where Value: Encodable {
    /// Writes the members in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        for entry in entries { try container.encode(entry.value, forKey: MemberKey(stringValue: entry.key)) }
    }
}

extension OrderedMap: Decodable where Value: Decodable {
    /// Reads the members in the order the decoder lists them (`JSONDecoder` does not promise the document's).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        self.init(try container.allKeys.map { ($0.stringValue, try container.decode(Value.self, forKey: $0)) })
    }
}

extension OrderedMap where Value == String {
    /// The map a JSON object holds, or `nil` when `json` is not an object of strings.
    public init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        var pairs: [(String, String)] = []
        for (key, value) in members {
            guard let text = value.stringValue else { return nil }
            pairs.append((key, text))
        }
        self.init(pairs)
    }

    /// The map as a JSON object, members in order.
    public var json: JSONValue { .object(entries.map { ($0.key, .string($0.value)) }) }
}

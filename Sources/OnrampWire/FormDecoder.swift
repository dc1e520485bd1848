/// Decodes `application/x-www-form-urlencoded` bodies and query strings with Stripe-style bracket
/// nesting into a ``JSONValue`` tree whose leaves are strings:
/// `a[b][c]=1` → `{"a":{"b":{"c":"1"}}}`, `list[]=x&list[]=y` and `list[0]=x&list[1]=y` → `{"list":["x","y"]}`.
public struct FormDecoder: Sendable {
    /// The most `key=value` pairs accepted.
    public var maximumPairs: Int
    /// The deepest bracket nesting accepted.
    public var maximumDepth: Int

    /// Creates a decoder with limits.
    public init(maximumPairs: Int = 1000, maximumDepth: Int = 8) {
        self.maximumPairs = maximumPairs
        self.maximumDepth = maximumDepth
    }

    /// Why a form was refused.
    public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, for a developer.
        public let message: String
        /// The key involved, when there is one.
        public let key: String?
        public var description: String { key.map { "\(message) (\($0))" } ?? message }
    }

    /// The raw decoded pairs of `text`, in order, without interpreting brackets.
    public func pairs(_ text: String) throws(DecodeError) -> [(String, String)] {
        // Split on the bytes `&` and `=`: ASCII bytes never occur inside a multi-byte character, so each
        // piece is whole UTF-8, and no character-by-character (grapheme) walk is needed.
        let utf8 = text.utf8
        var result: [(String, String)] = []
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            defer { start = end < utf8.endIndex ? utf8.index(after: end) : end }
            guard start < end else { continue }
            guard result.count < maximumPairs else { throw DecodeError(message: "too many parameters", key: nil) }
            let equals = utf8[start..<end].firstIndex(of: UInt8(ascii: "="))
            let rawKey = Substring(utf8[start..<(equals ?? end)])
            let rawValue = Substring(utf8[(equals.map { utf8.index(after: $0) } ?? end)..<end])
            guard let key = PercentEncoding.decode(rawKey, plusAsSpace: true), !key.isEmpty else {
                throw DecodeError(message: "malformed parameter name", key: String(rawKey))
            }
            guard let value = PercentEncoding.decode(rawValue, plusAsSpace: true) else {
                throw DecodeError(message: "malformed percent-encoding", key: key)
            }
            result.append((key, value))
        }
        return result
    }

    /// Decodes `text` into a tree.
    public func decode(_ text: String) throws(DecodeError) -> JSONValue {
        var root = Node.object([])
        var appendCounters: [String: Int] = [:]
        for (key, value) in try pairs(text) {
            var path = try splitKey(key)
            // `list[]` appends: give each occurrence the next index.
            if let emptyIndex = path.firstIndex(of: "") {
                guard emptyIndex == path.count - 1 else { throw DecodeError(message: "'[]' must come last", key: key) }
                let prefix = path[..<emptyIndex].joined(separator: "\u{0}")
                let next = appendCounters[prefix, default: 0]
                appendCounters[prefix] = next + 1
                path[emptyIndex] = String(next)
            }
            try root.insert(path: path[...], value: value, key: key, mayBecomeArray: false)
        }
        return root.json
    }

    private func splitKey(_ key: String) throws(DecodeError) -> [String] {
        let utf8 = key.utf8
        guard let open = utf8.firstIndex(of: UInt8(ascii: "[")) else {
            guard !utf8.contains(UInt8(ascii: "]")) else { throw DecodeError(message: "unbalanced brackets", key: key) }
            return [key]
        }
        guard open > utf8.startIndex else { throw DecodeError(message: "malformed parameter name", key: key) }
        var path = [String(Substring(utf8[..<open]))]
        var rest = utf8[open...]
        while let first = rest.first {
            guard first == UInt8(ascii: "["), let close = rest.firstIndex(of: UInt8(ascii: "]")) else {
                throw DecodeError(message: "unbalanced brackets", key: key)
            }
            let segment = rest[rest.index(after: rest.startIndex)..<close]
            guard !segment.contains(UInt8(ascii: "[")) else {
                throw DecodeError(message: "unbalanced brackets", key: key)
            }
            path.append(String(Substring(segment)))
            rest = rest[rest.index(after: close)...]
        }
        guard path.count - 1 <= maximumDepth else { throw DecodeError(message: "nesting too deep", key: key) }
        return path
    }
}

/// The tree under construction; arrays are kept as index → node until the end.
private indirect enum Node {
    case leaf(String)
    case object([(String, Node)])
    case array([Int: Node])

    var json: JSONValue {
        switch self {
        case .leaf(let text): return .string(text)
        case .object(let members): return .object(members.map { ($0.0, $0.1.json) })
        case .array(let elements): return .array(elements.keys.sorted().map { elements[$0]!.json })
        }
    }

    mutating func insert(
        path: ArraySlice<String>, value: String, key: String, mayBecomeArray: Bool = true
    ) throws(FormDecoder.DecodeError) {
        guard let head = path.first else {
            self = .leaf(value)
            return
        }
        let rest = path.dropFirst()
        let isIndex =
            !head.isEmpty && head.utf8.count <= 4
            && head.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        switch self {
        case .object(var members) where !isIndex || !members.isEmpty || !mayBecomeArray:
            // Let go of this node's copy so the members change in place (a refusal abandons the tree).
            self = .leaf("")
            let position = members.firstIndex(where: { $0.0 == head })
            var child = position.map { members[$0].1 } ?? Node.fresh(for: rest)
            try child.checkCompatible(rest: rest, key: key)
            try child.insert(path: rest, value: value, key: key)
            if let position {
                members[position].1 = child
            } else {
                members.append((head, child))
            }
            self = .object(members)
        case .object:
            // A fresh container whose first key is numeric becomes an array.
            self = .array([:])
            try insert(path: path, value: value, key: key)
        case .array(var elements):
            guard isIndex, let position = Int(head) else {
                throw FormDecoder.DecodeError(message: "mixes list indexes and names", key: key)
            }
            self = .leaf("")
            var child = elements[position] ?? Node.fresh(for: rest)
            try child.checkCompatible(rest: rest, key: key)
            try child.insert(path: rest, value: value, key: key)
            elements[position] = child
            self = .array(elements)
        case .leaf:
            throw FormDecoder.DecodeError(message: "is both a value and a nested object", key: key)
        }
    }

    static func fresh(for rest: ArraySlice<String>) -> Node {
        rest.isEmpty ? .leaf("") : .object([])
    }

    func checkCompatible(rest: ArraySlice<String>, key: String) throws(FormDecoder.DecodeError) {
        switch (self, rest.isEmpty) {
        case (.leaf, false), (.object, true), (.array, true):
            throw FormDecoder.DecodeError(message: "is both a value and a nested object", key: key)
        default: return
        }
    }
}

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
        guard !text.isEmpty else { return [] }
        var result: [(String, String)] = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard result.count < maximumPairs else { throw DecodeError(message: "too many parameters", key: nil) }
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = PercentEncoding.decode(parts[0], plusAsSpace: true), !key.isEmpty else {
                throw DecodeError(message: "malformed parameter name", key: String(parts[0]))
            }
            guard let value = PercentEncoding.decode(parts.count > 1 ? parts[1] : "", plusAsSpace: true) else {
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
        guard let open = key.firstIndex(of: "[") else {
            guard !key.contains("]") else { throw DecodeError(message: "unbalanced brackets", key: key) }
            return [key]
        }
        var path = [String(key[..<open])]
        guard !path[0].isEmpty else { throw DecodeError(message: "malformed parameter name", key: key) }
        var rest = key[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                throw DecodeError(message: "unbalanced brackets", key: key)
            }
            let segment = rest[rest.index(after: rest.startIndex)..<close]
            guard !segment.contains("[") else { throw DecodeError(message: "unbalanced brackets", key: key) }
            path.append(String(segment))
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
        let isIndex = !head.isEmpty && head.allSatisfy(\.isASCII) && head.allSatisfy(\.isNumber) && head.count <= 4
        switch self {
        case .object(var members) where !isIndex || !members.isEmpty || !mayBecomeArray:
            var child = members.first(where: { $0.0 == head })?.1 ?? Node.fresh(for: rest)
            try child.checkCompatible(rest: rest, key: key)
            try child.insert(path: rest, value: value, key: key)
            if let position = members.firstIndex(where: { $0.0 == head }) {
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

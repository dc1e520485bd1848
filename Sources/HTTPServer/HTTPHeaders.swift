/// HTTP header fields with case-insensitive names, in the order they were added.
public struct HTTPHeaders: Sendable, Sequence {
    private var fields: [(name: String, value: String)] = []

    /// Creates headers from name/value pairs.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first(where: { Self.equalIgnoringASCIICase($0.name, name) })?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.equalIgnoringASCIICase($0.name, name) }.map(\.value)
    }

    /// Compares header names without allocating (names are ASCII).
    static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                for index in 0..<x.count where !sameLetter(x[index], y[index]) { return false }
                return true
            }
        }
        if case .some(.some(let equal)) = compared { return equal }
        return zip(a.utf8, b.utf8).allSatisfy(sameLetter)
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case.
    private static func sameLetter(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
    }

    /// Makes room for `count` fields in all.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll(where: { Self.equalIgnoringASCIICase($0.name, name) })
    }

    /// Replaces every field called `name` with one holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        if fields.contains(where: { Self.equalIgnoringASCIICase($0.name, name) }) {
            fields.removeAll(where: { Self.equalIgnoringASCIICase($0.name, name) })
        } else {
            // A shared array (a response built once) is copied once, with room for the new field.
            fields.reserveCapacity(fields.count + 1)
        }
        fields.append((name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

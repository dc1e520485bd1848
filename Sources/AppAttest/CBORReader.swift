/// A strict CBOR reader: definite lengths only, bounded nesting depth and input size, valid UTF-8 text,
/// unique map keys, and lengths checked against the remaining input before anything is allocated.
public struct CBORReader {
    /// Bounds applied while reading.
    public struct Limits: Sendable {
        /// Maximum nesting of arrays, maps and tags.
        public var maxDepth: Int
        /// Maximum input size in bytes.
        public var maxSize: Int

        /// Creates limits.
        public init(maxDepth: Int = 16, maxSize: Int = 1 << 20) {
            self.maxDepth = maxDepth
            self.maxSize = maxSize
        }
    }

    private let bytes: [UInt8]
    private let limits: Limits
    /// Offset of the next unread byte.
    public private(set) var offset: Int

    /// Creates a reader positioned at `offset`; throws when the input exceeds `limits.maxSize`.
    public init(_ bytes: [UInt8], offset: Int = 0, limits: Limits = Limits()) throws(CBORError) {
        guard bytes.count <= limits.maxSize else { throw CBORError(code: .sizeExceeded, offset: 0) }
        self.bytes = bytes
        self.limits = limits
        self.offset = offset
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Decodes `bytes` as exactly one data item.
    public static func decode(_ bytes: [UInt8], limits: Limits = Limits()) throws(CBORError) -> CBORValue {
        var reader = try CBORReader(bytes, limits: limits)
        let value = try reader.readValue()
        guard reader.isAtEnd else { throw CBORError(code: .trailingBytes, offset: reader.offset) }
        return value
    }

    /// Reads the next data item and advances past it.
    public mutating func readValue() throws(CBORError) -> CBORValue {
        try readValue(depth: 0)
    }

    private mutating func readValue(depth: Int) throws(CBORError) -> CBORValue {
        guard depth <= limits.maxDepth else { throw CBORError(code: .depthExceeded, offset: offset) }
        let start = offset
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 { return try readSimple(info: info, start: start) }
        let argument = try readArgument(info: info, start: start)
        switch major {
        case 0:
            return .unsigned(argument)
        case 1:
            return .negative(argument)
        case 2:
            return .bytes(try readBytes(count: argument))
        case 3:
            let raw = try readBytes(count: argument)
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw CBORError(code: .invalidUTF8, offset: start)
            }
            return .text(text)
        case 4:
            guard argument <= UInt64(bytes.count - offset) else { throw CBORError(code: .truncated, offset: start) }
            var items: [CBORValue] = []
            items.reserveCapacity(Int(argument))
            for _ in 0..<argument { items.append(try readValue(depth: depth + 1)) }
            return .array(items)
        case 5:
            guard argument <= UInt64(bytes.count - offset) / 2 else { throw CBORError(code: .truncated, offset: start) }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(Int(argument))
            var keys = Set<CBORValue>()
            for _ in 0..<argument {
                let keyOffset = offset
                let key = try readValue(depth: depth + 1)
                guard keys.insert(key).inserted else { throw CBORError(code: .duplicateKey, offset: keyOffset) }
                entries.append(CBORMapEntry(key, try readValue(depth: depth + 1)))
            }
            return .map(entries)
        default:
            return .tagged(argument, try readValue(depth: depth + 1))
        }
    }

    private mutating func readSimple(info: UInt8, start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 0..<20: return .simple(info)
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let value = try readByte()
            guard value >= 32 else { throw CBORError(code: .reserved, offset: start) }
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try readUInt(byteCount: 2))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try readUInt(byteCount: 4)))))
        case 27: return .float(Double(bitPattern: try readUInt(byteCount: 8)))
        case 31: throw CBORError(code: .indefiniteLength, offset: start)
        default: throw CBORError(code: .reserved, offset: start)
        }
    }

    private mutating func readArgument(info: UInt8, start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try readUInt(byteCount: 1)
        case 25: return try readUInt(byteCount: 2)
        case 26: return try readUInt(byteCount: 4)
        case 27: return try readUInt(byteCount: 8)
        case 31: throw CBORError(code: .indefiniteLength, offset: start)
        default: throw CBORError(code: .reserved, offset: start)
        }
    }

    private mutating func readByte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw CBORError(code: .truncated, offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readUInt(byteCount: Int) throws(CBORError) -> UInt64 {
        guard bytes.count - offset >= byteCount else { throw CBORError(code: .truncated, offset: offset) }
        var value: UInt64 = 0
        for index in 0..<byteCount { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += byteCount
        return value
    }

    private mutating func readBytes(count: UInt64) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(bytes.count - offset) else { throw CBORError(code: .truncated, offset: offset) }
        let end = offset + Int(count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    private static func half(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 == 0 ? 1 : -1
        let exponent = Int(bits >> 10 & 0x1F)
        let fraction = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }
}

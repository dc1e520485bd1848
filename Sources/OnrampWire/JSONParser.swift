/// A strict JSON parser (RFC 8259) with limits: bounded nesting depth, no trailing content, no
/// duplicate handling surprises (the last duplicate member wins on lookup), valid UTF-8 only.
/// Numbers are validated and kept as text.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    /// Creates a parser.
    public init(maximumDepth: Int = 32) {
        self.maximumDepth = maximumDepth
    }

    /// Why a document was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, for a developer.
        public let message: String
        /// The byte offset at which parsing stopped.
        public let offset: Int
        public var description: String { "\(message) at byte \(offset)" }
    }

    /// Parses `bytes` as one JSON document.
    public func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected content after the document") }
        return value
    }

    /// Parses a UTF-8 string as one JSON document.
    public func parse(_ text: String) throws(ParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ message: String) -> JSONParser.ParseError {
        JSONParser.ParseError(message: message, offset: index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func value(depth: Int) throws(JSONParser.ParseError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: String) throws(JSONParser.ParseError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected)
        else { throw error("invalid literal") }
        index += expected.count
    }

    mutating func object(depth: Int) throws(JSONParser.ParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        // Room for a typical object's members at once, not four regrowths on the way to them.
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONParser.ParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func number() throws(JSONParser.ParseError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let c = current, isDigit(c) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let c = current, isDigit(c) else { throw error("invalid number") }
            while let c = current, isDigit(c) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let c = current, isDigit(c) else { throw error("invalid number") }
            while let c = current, isDigit(c) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    mutating func string() throws(JSONParser.ParseError) -> String {
        index += 1
        // Most strings hold no escape: up to the closing quote they are taken as one slice.
        let start = index
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                guard let text = UTF8Text.string(bytes[start..<(index - 1)]) else {
                    throw error("invalid UTF-8")
                }
                return text
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while true {
            guard let c = current else { throw error("unterminated string") }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = UTF8Text.string(scalars) else { throw error("invalid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &scalars)
            case 0..<0x20:
                throw error("control character in string")
            default:
                scalars.append(c)
                index += 1
            }
        }
    }

    mutating func escape(into output: inout [UInt8]) throws(JSONParser.ParseError) {
        guard let c = current else { throw error("unterminated escape") }
        index += 1
        switch c {
        case UInt8(ascii: "\""): output.append(0x22)
        case UInt8(ascii: "\\"): output.append(0x5C)
        case UInt8(ascii: "/"): output.append(0x2F)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800...0xDBFF).contains(code) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw error("unpaired surrogate")
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("invalid escape") }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw error("invalid escape")
        }
    }

    mutating func hex4() throws(JSONParser.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

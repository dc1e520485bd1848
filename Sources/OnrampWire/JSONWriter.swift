extension JSONValue {
    /// The compact JSON encoding of this value, members in their stored order.
    public var serialized: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    /// The compact JSON encoding as a string.
    public var serializedString: String {
        String(decoding: serialized, as: UTF8.self)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { writeEscaped($0, to: &output) }
        if written == nil { Array(text.utf8).withUnsafeBufferPointer { writeEscaped($0, to: &output) } }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` escaped: the runs that need no escape are copied whole, not byte by byte, and
    /// found eight bytes at a time.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return }
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            while index + 8 <= count {
                guard !containsByteToEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { break }
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            let escaped: [UInt8]
            switch byte {
            case UInt8(ascii: "\""): escaped = [0x5C, 0x22]
            case UInt8(ascii: "\\"): escaped = [0x5C, 0x5C]
            case 0x0A: escaped = [0x5C, UInt8(ascii: "n")]
            case 0x0D: escaped = [0x5C, UInt8(ascii: "r")]
            case 0x09: escaped = [0x5C, UInt8(ascii: "t")]
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                escaped = [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            default:
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            output.append(contentsOf: escaped)
            index += 1
            runStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    }

    /// Whether one of the eight bytes of `word` needs an escape: a control character, `"`, `\`, `<`, `>`
    /// or `&`. Exact, not a filter: the has-zero-byte test is exact for the word as a whole.
    @inline(__always)
    private static func containsByteToEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // A byte below n (n ≤ 0x80) borrows in `word - n·ones` and had its high bit clear.
        let control = (word &- ones &* 0x20) & ~word & highBits
        func hasByte(_ value: UInt64) -> UInt64 {
            let difference = word ^ (ones &* value)
            return (difference &- ones) & ~difference & highBits
        }
        return control | hasByte(0x22) | hasByte(0x5C) | hasByte(0x3C) | hasByte(0x3E) | hasByte(0x26) != 0
    }
}

extension JSONValue {
    /// The value as two-space indented JSON, members in their order (for people: the console, golden
    /// files). ``serialized`` is the compact form the wire uses.
    public var prettyPrinted: String { pretty(indent: "") }

    private func pretty(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .object(let members) where !members.isEmpty:
            let lines = members.map {
                "\(inner)\(JSONValue.string($0.0).serializedString): \($0.1.pretty(indent: inner))"
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        default:
            return serializedString
        }
    }
}

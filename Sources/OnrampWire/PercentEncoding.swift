/// Percent-decoding for URL paths, query strings and form bodies.
public enum PercentEncoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`); `nil` when an escape is malformed
    /// or the result is not valid UTF-8.
    public static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool = false) -> String? {
        // Most names and values have nothing to decode: they are already valid UTF-8 text.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusAsSpace) }) {
            return String(text)
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                output.append(high << 4 | low)
            case UInt8(ascii: "+") where plusAsSpace:
                output.append(0x20)
            default:
                output.append(byte)
            }
        }
        return UTF8Text.string(output)
    }

    /// Encodes everything but RFC 3986 unreserved characters.
    public static func encode(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(digits[Int(byte >> 4)])
                output.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

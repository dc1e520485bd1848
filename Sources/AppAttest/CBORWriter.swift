/// Encodes ``CBORValue``s with the shortest argument forms and definite lengths (the form Apple's
/// attestation objects use). Floats are written as doubles.
public enum CBORWriter {
    /// The encoding of `value`.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }

    private static func append(_ value: CBORValue, to output: inout [UInt8]) {
        switch value {
        case .unsigned(let number): head(0, number, &output)
        case .negative(let number): head(1, number, &output)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count), &output)
            output += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count), &output)
            output += Array(text.utf8)
        case .array(let items):
            head(4, UInt64(items.count), &output)
            for item in items { append(item, to: &output) }
        case .map(let entries):
            head(5, UInt64(entries.count), &output)
            for entry in entries {
                append(entry.key, to: &output)
                append(entry.value, to: &output)
            }
        case .tagged(let tag, let item):
            head(6, tag, &output)
            append(item, to: &output)
        case .bool(let flag): output.append(flag ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        case .undefined: output.append(0xF7)
        case .simple(let number):
            if number < 24 {
                output.append(0xE0 | number)
            } else {
                output += [0xF8, number]
            }
        case .float(let number):
            output.append(0xFB)
            let bits = number.bitPattern
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
            }
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, _ output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: output.append(type | UInt8(argument))
        case 24...0xFF: output += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: output += [type | 25, UInt8(argument >> 8), UInt8(truncatingIfNeeded: argument)]
        case 0x10000...0xFFFF_FFFF:
            output.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: argument >> UInt64(shift)))
            }
        default:
            output.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: argument >> UInt64(shift)))
            }
        }
    }
}

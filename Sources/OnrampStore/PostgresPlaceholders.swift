/// Rewrites the store's `?` placeholders into PostgreSQL's `$1 … $n`.
enum PostgresPlaceholders {
    /// Returns `sql` with each `?` outside string literals, quoted identifiers and comments replaced by
    /// `$n`, and the number of placeholders found.
    static func rewrite(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"):
                let escapes = index > 0 && (bytes[index - 1] | 0x20) == UInt8(ascii: "e")
                let end = endOfQuoted(bytes, from: index, quote: byte, backslashEscapes: escapes)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "\""):
                let end = endOfQuoted(bytes, from: index, quote: byte, backslashEscapes: false)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == byte:
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                var end = index + 2
                while end < bytes.count
                    && !(bytes[end - 1] == UInt8(ascii: "*") && bytes[end] == UInt8(ascii: "/") && end > index + 2)
                {
                    end += 1
                }
                end = min(end + 1, bytes.count)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "?"):
                count += 1
                output += Array("$\(count)".utf8)
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    /// The index just past the quoted run starting at `start`; a doubled quote stays inside it.
    private static func endOfQuoted(
        _ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool
    ) -> Int {
        var index = start + 1
        while index < bytes.count {
            if backslashEscapes && bytes[index] == UInt8(ascii: "\\") {
                index += 2
            } else if bytes[index] == quote {
                if index + 1 < bytes.count && bytes[index + 1] == quote {
                    index += 2
                } else {
                    return index + 1
                }
            } else {
                index += 1
            }
        }
        return bytes.count
    }
}

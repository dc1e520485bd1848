/// A JSON body copied byte by byte with each sensitive value replaced by `"[redacted]"`, whitespace outside
/// strings dropped, at most ``LoggedBody/limit`` bytes: no tree is built, so a kept body costs a pass over its
/// bytes. A string or literal is replaced when it looks secret (``LoggedBody/isSensitiveValue(_:)``) or when
/// the member it is the value of is named for a secret (``LoggedBody/isSensitive(_:value:)``). Text that is not
/// JSON (a stray byte, an unclosed string, unbalanced brackets) has ``text`` nil, so nothing is kept of it.
struct RedactedJSON {
    /// The redacted text; nil when the body is not JSON.
    let text: String?

    init(_ bytes: [UInt8]) {
        text = bytes.withUnsafeBufferPointer { Self.redact($0) }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let redactedString = Array("\"\(LoggedBody.redacted)\"".utf8)

    private static func redact(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, LoggedBody.limit) + 16)
        var index = 0
        var depth = 0
        // The words of the member name whose value comes next; nil outside a member's value.
        var member: LoggedBody.NameWords?
        while index < bytes.count {
            guard out.count < LoggedBody.limit else {
                return String(decoding: LoggedBody.cutAtCharacter(out), as: UTF8.self) + "…"
            }
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case quote:
                guard let end = stringEnd(bytes, from: index) else { return nil }
                let content = bytes[(index + 1)..<(end - 1)]
                if isName(bytes, after: end) {
                    member = LoggedBody.NameWords(UnsafeBufferPointer(rebasing: content))
                    out.append(contentsOf: bytes[index..<end])
                } else {
                    append(bytes[index..<end], content: content, member: member, to: &out)
                    member = nil
                }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                member = nil
                out.append(byte)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth >= 0 else { return nil }
                out.append(byte)
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                if byte == UInt8(ascii: ",") { member = nil }
                out.append(byte)
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
                UInt8(ascii: "n"):
                var end = index
                while end < bytes.count, isLiteralByte(bytes[end]) { end += 1 }
                let token = bytes[index..<end]
                append(token, content: token, member: member, to: &out)
                member = nil
                index = end
            default:
                return nil
            }
        }
        guard depth == 0 else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// `token` as it was, or `"[redacted]"` when its `content` or the `member` it belongs to is sensitive.
    private static func append(
        _ token: Slice<UnsafeBufferPointer<UInt8>>, content: Slice<UnsafeBufferPointer<UInt8>>,
        member: LoggedBody.NameWords?,
        to out: inout [UInt8]
    ) {
        let hidden =
            LoggedBody.isSensitiveValue(content) || member.map { LoggedBody.isSensitive($0, value: content) } ?? false
        if hidden { out.append(contentsOf: redactedString) } else { out.append(contentsOf: token) }
    }

    /// The index after the string starting at `start` (its opening quote), or nil when it does not close.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case quote: return index + 1
            case backslash: index += 2
            case 0..<0x20: return nil
            default: index += 1
            }
        }
        return nil
    }

    /// Whether a `:` follows `index` (past whitespace): the string before it was a member's name.
    private static func isName(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Bool {
        var index = index
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: ":")
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A byte of a number or of `true`, `false`, `null`.
    private static func isLiteralByte(_ byte: UInt8) -> Bool {
        LoggedBody.isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "E")
    }
}

/// A form body (`application/x-www-form-urlencoded`) copied byte by byte with each sensitive pair's value
/// replaced by `[redacted]`, at most ``LoggedBody/limit`` bytes. A name or value is percent-decoded (into a
/// small buffer) only to be judged, and only when it holds an escape; what is kept is the bytes as sent.
struct RedactedForm {
    /// The redacted text.
    let text: String

    init(_ bytes: [UInt8]) {
        text = bytes.withUnsafeBufferPointer { Self.redact($0) }
    }

    private static let redactedValue = Array(LoggedBody.redacted.utf8)

    private static func redact(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, LoggedBody.limit) + 16)
        var start = 0
        while start <= bytes.count {
            guard out.count < LoggedBody.limit else {
                return String(decoding: LoggedBody.cutAtCharacter(out), as: UTF8.self) + "…"
            }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            let name = bytes[start..<equals]
            let value = bytes[min(equals + 1, end)..<end]
            if start > 0 { out.append(UInt8(ascii: "&")) }
            if isSensitive(name: name, value: value) {
                out.append(contentsOf: name)
                out.append(UInt8(ascii: "="))
                out.append(contentsOf: redactedValue)
            } else {
                out.append(contentsOf: bytes[start..<end])
            }
            start = end + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the pair `name`=`value` (as sent) is kept out of the log, judged on their decoded bytes.
    private static func isSensitive(name: Slice<UnsafeBufferPointer<UInt8>>, value: Slice<UnsafeBufferPointer<UInt8>>)
        -> Bool
    {
        decoded(value) { value in
            decoded(name) { name in LoggedBody.isSensitive(LoggedBody.NameWords(name), value: value) }
        }
    }

    /// Runs `body` on `bytes` percent-decoded (`+` as a space), decoding only when there is an escape.
    private static func decoded<T>(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return body(UnsafeBufferPointer(rebasing: bytes))
        }
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                plain.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                plain.append(high << 4 | low)
                index += 2
            } else {
                plain.append(byte)
            }
            index += 1
        }
        return plain.withUnsafeBufferPointer(body)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

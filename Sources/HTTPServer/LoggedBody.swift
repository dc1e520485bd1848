import OnrampWire

/// A request's or response's body as the request log keeps it: JSON and forms only, every secret, token and
/// card detail replaced by `[redacted]`, at most ``limit`` bytes. Other media types are described, never kept
/// (a page carries its single-use secrets in hidden fields).
///
/// Redacted, under any name: a value that looks like a secret key (`sk_`, `rk_`, `whsec_`, `lsk_`), a client
/// secret (`…_secret_…`), a JWT, or a card number (13 to 19 digits that pass the Luhn check). Redacted by the
/// name it has: secrets, tokens, passwords, signatures, authorizations, OTPs and verifiers, private and API
/// keys, card and account numbers, CVCs and expiry dates, id numbers, and a short all-digit `code` (a one-time
/// code; an error's `code` is a word and stays).
public enum LoggedBody {
    /// The most bytes kept of one body.
    public static let limit = 2048
    /// What a redacted value reads as.
    public static let redacted = "[redacted]"

    /// The text kept of `bytes` sent as `contentType`; nil for an empty body.
    public static func text(of bytes: [UInt8], contentType: String?) -> String? {
        guard !bytes.isEmpty else { return nil }
        switch MediaType(contentType) {
        case .json, .none:
            return RedactedJSON(bytes).text ?? "(\(bytes.count) bytes\(contentType == nil ? "" : ", not JSON"))"
        case .form:
            guard UTF8Text.string(bytes) != nil else { return "(\(bytes.count) bytes, not UTF-8)" }
            return RedactedForm(bytes).text
        case .other:
            let name = contentType?.split(separator: ";").first?.trimmingSpaces().lowercased() ?? ""
            return "(\(name), \(bytes.count) bytes, not kept)"
        }
    }

    /// What a body's `Content-Type` makes of it, read without allocating (it is read for every kept body).
    enum MediaType {
        case json, form, other, none

        init(_ contentType: String?) {
            guard var contentType else {
                self = .none
                return
            }
            self = contentType.withUTF8 { bytes in
                var start = 0
                var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
                while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
                while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
                let type = bytes[start..<end]
                func equals(_ name: StaticString) -> Bool {
                    type.count == name.utf8CodeUnitCount
                        && zip(type, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
                            .allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
                }
                if equals("application/json") || equals("application/problem+json") { return .json }
                if equals("application/x-www-form-urlencoded") { return .form }
                return type.isEmpty ? .none : .other
            }
        }
    }

    /// Whether a member whose name is made of `words`, holding `value` (its bytes, without quotes), is kept out
    /// of the log.
    static func isSensitive<Bytes: BidirectionalCollection<UInt8>>(_ words: NameWords, value: Bytes) -> Bool
    where Bytes.Index == Int {
        if isSensitiveValue(value) || words.contains(.secretive) { return true }
        if words.contains(.key), !words.isDisjoint(with: [.privateWord, .api, .signing]) { return true }
        if words.contains(.number), !words.isDisjoint(with: [.card, .account, .routing, .id]) { return true }
        if words.contains(.exp) || (words.contains(.card) && !words.isDisjoint(with: [.month, .year])) { return true }
        return words.contains(.code) && (4...8).contains(value.count) && value.allSatisfy(isDigit)
    }

    /// The words a member name is made of, as far as redaction cares: split at anything not a letter or
    /// digit and where a lower-case letter meets an upper-case one (`card[exp_month]` is card, exp, month;
    /// `clientSecret` is client, secret), compared without case, byte by byte (no allocation: this runs for
    /// every member of every kept body).
    struct NameWords: OptionSet {
        let rawValue: UInt32

        /// Secret whatever else the name says.
        static let secretive = NameWords(rawValue: 1 << 0)
        static let key = NameWords(rawValue: 1 << 1)
        static let privateWord = NameWords(rawValue: 1 << 2)
        static let api = NameWords(rawValue: 1 << 3)
        static let signing = NameWords(rawValue: 1 << 4)
        static let number = NameWords(rawValue: 1 << 5)
        static let card = NameWords(rawValue: 1 << 6)
        static let account = NameWords(rawValue: 1 << 7)
        static let routing = NameWords(rawValue: 1 << 8)
        static let id = NameWords(rawValue: 1 << 9)
        static let exp = NameWords(rawValue: 1 << 10)
        static let month = NameWords(rawValue: 1 << 11)
        static let year = NameWords(rawValue: 1 << 12)
        static let code = NameWords(rawValue: 1 << 13)

        init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The words of the name whose UTF-8 bytes are `bytes`.
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var found: NameWords = []
            var start = 0
            var previousWasLower = false
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : 0
                let upper = byte >= 65 && byte <= 90
                let lowerOrDigit = (byte >= 97 && byte <= 122) || LoggedBody.isDigit(byte)
                let boundary = !(upper || lowerOrDigit || byte >= 0x80) || (upper && previousWasLower)
                if boundary {
                    if index > start { found.insert(Self.word(bytes[start..<index])) }
                    start = upper ? index : index + 1
                }
                previousWasLower = lowerOrDigit
            }
            self = found
        }

        /// What one word is, compared without case: its bytes packed into a key and compared with each word of
        /// the vocabulary's (plain integers in one array: no hashing, no reference counting).
        private static func word(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> NameWords {
            guard bytes.count <= longestWord else { return [] }
            let key = WordKey(bytes)
            for entry in vocabulary where entry.key == key { return entry.meaning }
            return []
        }

        /// Up to 16 bytes of a word, lower-cased (`| 0x20` lower-cases an ASCII letter and leaves digits),
        /// packed into two integers.
        private struct WordKey: Equatable {
            var low: UInt64 = 0
            var high: UInt64 = 0

            init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
                for (offset, byte) in bytes.prefix(16).enumerated() {
                    let folded = UInt64(byte | 0x20)
                    if offset < 8 { low |= folded << (offset * 8) } else { high |= folded << ((offset - 8) * 8) }
                }
            }
        }

        private static let secretiveWords: [String] = [
            "secret", "token", "password", "passcode", "signature", "authorization", "otp", "verifier", "cvc", "cvv",
            "ssn", "iban", "pan", "jwt", "pin",
        ]
        private static let namedWords: [(String, NameWords)] = [
            ("key", .key), ("private", .privateWord), ("api", .api), ("signing", .signing), ("number", .number),
            ("card", .card), ("account", .account), ("routing", .routing), ("id", .id), ("exp", .exp),
            ("month", .month), ("year", .year), ("code", .code),
        ]
        private static let vocabulary: [(key: WordKey, meaning: NameWords)] =
            secretiveWords.map { (WordKey($0.utf8), NameWords.secretive) }
            + namedWords.map { (WordKey($0.0.utf8), $0.1) }
        private static let longestWord = (secretiveWords + namedWords.map(\.0)).map(\.utf8.count).max() ?? 0
    }

    /// Whether `value` (UTF-8 bytes) is a secret by its look: a secret or restricted key, a webhook or link
    /// session secret, a client secret, a JWT, or a card number.
    static func isSensitiveValue<Bytes: BidirectionalCollection<UInt8>>(_ value: Bytes) -> Bool
    where Bytes.Index == Int {
        guard value.count >= 13 else { return false }
        for prefix in secretPrefixes where value.starts(with: prefix) { return true }
        if contains(value, clientSecretMark) { return true }
        if value.starts(with: jwtStart), value.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 { return true }
        return looksLikeCardNumber(value)
    }

    private static let secretPrefixes = ["sk_", "rk_", "whsec_", "lsk_"].map { Array($0.utf8) }
    private static let clientSecretMark = Array("_secret_".utf8)
    private static let jwtStart = Array("eyJ".utf8)

    private static func contains<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ mark: [UInt8]) -> Bool
    where Bytes.Index == Int {
        guard bytes.count >= mark.count else { return false }
        var start = bytes.startIndex
        while start <= bytes.endIndex - mark.count {
            if bytes[start] == mark[0], bytes[start..<(start + mark.count)].elementsEqual(mark) { return true }
            start += 1
        }
        return false
    }

    /// 13 to 19 digits, spaces and dashes aside, that pass the Luhn check (counted from the last digit, with
    /// no copy).
    private static func looksLikeCardNumber<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard bytes.count <= 23 else { return false }
        var count = 0
        var sum = 0
        for byte in bytes.reversed() {
            if isDigit(byte) {
                let digit = Int(byte - UInt8(ascii: "0"))
                let doubled = count % 2 == 1 ? digit * 2 : digit
                sum += doubled > 9 ? doubled - 9 : doubled
                count += 1
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "-") {
                return false
            }
        }
        return (13...19).contains(count) && sum % 10 == 0
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The first ``limit`` bytes of `bytes` (all when fewer), backed off to a character boundary.
    static func cutAtCharacter(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var end = min(bytes.count, limit)
        // A continuation byte (10xxxxxx) at the cut belongs to a character that does not fit.
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return bytes[..<end]
    }

}

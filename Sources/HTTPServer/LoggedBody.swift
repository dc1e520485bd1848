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
        let mediaType = contentType?.split(separator: ";").first?.trimmingSpaces.lowercased() ?? ""
        let text: String
        switch mediaType {
        case "application/json", "application/problem+json", "":
            guard let value = try? JSONParser().parse(bytes) else {
                return "(\(bytes.count) bytes\(mediaType.isEmpty ? "" : ", not JSON"))"
            }
            text = redact(value).serializedString
        case "application/x-www-form-urlencoded":
            guard let form = UTF8Text.string(bytes) else { return "(\(bytes.count) bytes, not UTF-8)" }
            text = redactForm(form)
        default:
            return "(\(mediaType), \(bytes.count) bytes, not kept)"
        }
        return truncated(text)
    }

    /// `value` with every sensitive member and string replaced.
    static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { name, member in
                    let hidden =
                        switch member {
                        case .string(let text), .number(let text): isSensitive(name: name, value: text)
                        case .bool: isSensitive(name: name, value: "")
                        default: false
                        }
                    return (name, hidden ? .string(redacted) : redact(member))
                })
        case .array(let items): return .array(items.map(redact))
        case .string(let text): return isSensitiveValue(text) ? .string(redacted) : value
        default: return value
        }
    }

    /// A form with every sensitive pair's value replaced, the rest as sent.
    static func redactForm(_ form: String) -> String {
        form.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decode(parts[0], plusAsSpace: true) ?? String(parts[0])
            let value = parts.count > 1 ? PercentEncoding.decode(parts[1], plusAsSpace: true) ?? "" : ""
            return isSensitive(name: name, value: value) ? "\(parts[0])=\(redacted)" : String(pair)
        }.joined(separator: "&")
    }

    /// Whether a member called `name` holding `value` is kept out of the log.
    static func isSensitive(name: String, value: String) -> Bool {
        if isSensitiveValue(value) { return true }
        let words = Set(words(of: name))
        if !words.isDisjoint(with: sensitiveWords) { return true }
        if words.contains("key"), !words.isDisjoint(with: ["private", "api", "secret", "signing"]) { return true }
        if words.contains("number"), !words.isDisjoint(with: ["card", "account", "routing", "id"]) { return true }
        if words.contains("exp") || (words.contains("card") && !words.isDisjoint(with: ["month", "year"])) {
            return true
        }
        return words.contains("code") && (4...8).contains(value.utf8.count) && value.utf8.allSatisfy(isDigit)
    }

    /// Names whose values are secret whatever else the name says.
    private static let sensitiveWords: Set<String> = [
        "secret", "token", "password", "passcode", "signature", "authorization", "otp", "verifier", "cvc", "cvv",
        "ssn", "iban", "pan", "jwt", "pin",
    ]

    /// Whether `text` is a secret by its look: a secret or restricted key, a webhook or link session secret, a
    /// client secret, a JWT, or a card number.
    static func isSensitiveValue(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count >= 13 else { return false }
        for prefix in ["sk_", "rk_", "whsec_", "lsk_"] where text.hasPrefix(prefix) { return true }
        if text.contains("_secret_") { return true }
        if text.hasPrefix("eyJ"), utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2 { return true }
        return looksLikeCardNumber(utf8)
    }

    /// 13 to 19 digits, spaces and dashes aside, that pass the Luhn check.
    private static func looksLikeCardNumber(_ utf8: String.UTF8View) -> Bool {
        guard utf8.count <= 23 else { return false }
        var digits: [UInt8] = []
        for byte in utf8 {
            if isDigit(byte) {
                digits.append(byte - UInt8(ascii: "0"))
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "-") {
                return false
            }
        }
        guard (13...19).contains(digits.count) else { return false }
        var sum = 0
        for (index, digit) in digits.reversed().enumerated() {
            let doubled = index % 2 == 1 ? Int(digit) * 2 : Int(digit)
            sum += doubled > 9 ? doubled - 9 : doubled
        }
        return sum % 10 == 0
    }

    /// The lower-case words of a member name: split at anything not a letter or digit and where a lower-case
    /// letter meets an upper-case one (`card[exp_month]` → card, exp, month; `clientSecret` → client, secret).
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `text` cut to ``limit`` bytes on a character boundary, with an ellipsis when cut.
    private static func truncated(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
            end = text.utf8.index(before: end)
        }
        return String(text[..<end]) + "…"
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

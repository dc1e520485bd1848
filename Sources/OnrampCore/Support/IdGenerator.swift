import Foundation

/// Makes prefixed object ids (`cos_` + 24 base62 characters) and client secrets.
public struct IdGenerator: Sendable {
    /// The number of random base62 characters after the prefix.
    public static let randomLength = 24

    private static let alphabet = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    private let random: any RandomSource

    /// Creates a generator drawing from `random`.
    public init(random: any RandomSource = SystemRandomSource()) {
        self.random = random
    }

    /// `length` unbiased base62 characters (rejection sampling over random bytes).
    public func base62(length: Int = IdGenerator.randomLength) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        while characters.count < length {
            for byte in random.bytes(length - characters.count + 8) where byte < 248 {
                guard characters.count < length else { break }
                characters.append(Self.alphabet[Int(byte % 62)])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `count` random bytes (for challenges and tokens).
    public func randomBytes(_ count: Int) -> [UInt8] {
        random.bytes(count)
    }

    /// A random (version 4) UUID in lower case, as CDP ids are written.
    public func uuid() -> String {
        var bytes = random.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return Self.uuidString(from: bytes)
    }

    /// A time-ordered (version 7, RFC 9562) UUID in lower case: the 48-bit Unix time in `milliseconds`,
    /// then random bits. Rows keyed by it are appended at the end of their primary-key index instead
    /// of landing on a random page, so a commit that adds many of them (the webhook dispatcher's
    /// deliveries and attempts) writes a few pages to the log instead of one per row. Its text sorts
    /// in time order. It tells when it was made, so it is for internal records, never for secrets.
    public func timeOrderedUUID(milliseconds: Int64) -> String {
        var bytes = random.bytes(16)
        let time = UInt64(clamping: max(milliseconds, 0)) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (40 - 8 * UInt64(index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return Self.uuidString(from: bytes)
    }

    /// 16 bytes written in the UUID layout (`8-4-4-4-12` lower-case hex).
    public static func uuidString(from bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        return String(unsafeUninitializedCapacity: 36) { text in
            var position = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = hexDigits[Int(byte >> 4)]
                text[position + 1] = hexDigits[Int(byte & 0x0F)]
                position += 2
            }
            return position
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A new id: `prefix`, `_` and 24 base62 characters, for example `cos_1a2B…`.
    public func id(prefix: String) -> String {
        "\(prefix)_\(base62())"
    }

    /// A time-ordered id of the same shape as ``id(prefix:)``: `prefix`, `_`, then `milliseconds` as 8
    /// base62 digits (most significant first, so the text sorts in time order) and 16 random base62
    /// characters (95 bits). Like Stripe's own ids, and like ``timeOrderedUUID(milliseconds:)`` for the
    /// same reason: rows keyed by it are appended at the end of their index instead of landing on a
    /// random page each. It tells when it was made: for records whose time is public anyway (events,
    /// whose `created` says it), never for secrets.
    public func timeOrderedID(prefix: String, milliseconds: Int64) -> String {
        var time = UInt64(clamping: max(milliseconds, 0))
        var digits = [UInt8](repeating: Self.alphabet[0], count: Self.timeDigits)
        for index in stride(from: Self.timeDigits - 1, through: 0, by: -1) {
            digits[index] = Self.alphabet[Int(time % 62)]
            time /= 62
        }
        return
            "\(prefix)_\(String(decoding: digits, as: UTF8.self))\(base62(length: Self.randomLength - Self.timeDigits))"
    }

    /// Base62 digits of a time-ordered id's milliseconds: 62^8 ms is about 6,900 years.
    private static let timeDigits = 8

    /// `prefix_` and `length` base62 characters (tokens and secrets longer than an id).
    public func id(prefix: String, length: Int) -> String {
        "\(prefix)_\(base62(length: length))"
    }

    /// A client secret bound to an object id: `<id>_secret_` and 24 base62 characters.
    public func clientSecret(for id: String) -> String {
        "\(id)_secret_\(base62())"
    }

    /// The object id a client secret was made for, or `nil` when `secret` is not shaped like one.
    public static func objectID(fromClientSecret secret: String) -> String? {
        guard let range = secret.range(of: "_secret_", options: .backwards) else { return nil }
        let id = String(secret[..<range.lowerBound])
        let tail = secret[range.upperBound...]
        guard !id.isEmpty, tail.utf8.count == randomLength, tail.utf8.allSatisfy({ alphabet.contains($0) })
        else { return nil }
        return id
    }
}

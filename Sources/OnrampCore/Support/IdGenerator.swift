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

    /// 16 bytes written in the UUID layout (`8-4-4-4-12` lower-case hex).
    public static func uuidString(from bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A new id: `prefix`, `_` and 24 base62 characters, for example `cos_1a2B…`.
    public func id(prefix: String) -> String {
        "\(prefix)_\(base62())"
    }

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

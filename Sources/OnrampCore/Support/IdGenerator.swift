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

    /// A new id: `prefix`, `_` and 24 base62 characters, for example `cos_1a2B…`.
    public func id(prefix: String) -> String {
        "\(prefix)_\(base62())"
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

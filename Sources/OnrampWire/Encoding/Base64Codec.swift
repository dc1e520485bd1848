/// The shared base64 engine behind ``Base64`` and ``Base64URL`` (RFC 4648).
struct Base64Codec: Sendable {
    private let alphabet: [UInt8]
    private let reverse: [UInt8]

    static let standard = Base64Codec(
        alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    static let url = Base64Codec(
        alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private init(alphabet: String) {
        self.alphabet = Array(alphabet.utf8)
        var reverse = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in self.alphabet.enumerated() { reverse[Int(character)] = UInt8(index) }
        self.reverse = reverse
    }

    func encode(_ bytes: [UInt8], padded: Bool) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            output.append(alphabet[Int(value & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining == 1 {
            let value = UInt32(bytes[index]) << 16
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            if padded { output.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")]) }
        } else if remaining == 2 {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            if padded { output.append(UInt8(ascii: "=")) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Strict decoding: only alphabet characters, padding (if any) complete and at the end, and unused
    /// trailing bits zero. `requirePadding` demands a multiple of four characters.
    func decode(_ text: String, requirePadding: Bool, allowPadding: Bool) -> [UInt8]? {
        var characters = Array(text.utf8)
        var paddingCount = 0
        while let last = characters.last, last == UInt8(ascii: "=") {
            characters.removeLast()
            paddingCount += 1
        }
        if paddingCount > 0 {
            guard allowPadding, paddingCount <= 2, (characters.count + paddingCount) % 4 == 0 else { return nil }
        } else if requirePadding, characters.count % 4 != 0 {
            return nil
        }
        guard characters.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = reverse[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return output
    }
}

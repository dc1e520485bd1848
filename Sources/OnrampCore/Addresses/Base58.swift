/// Base58 with the Bitcoin alphabet, as used by Bitcoin and Solana addresses.
public enum Base58 {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()

    /// Decodes a Base58 string, or returns `nil` when it holds a character outside the alphabet.
    public static func decode(_ string: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var leadingZeros = 0
        var seenNonZero = false
        for character in string.utf8 {
            guard character < 128, values[Int(character)] >= 0 else { return nil }
            var carry = Int(values[Int(character)])
            if carry == 0 && !seenNonZero {
                leadingZeros += 1
                continue
            }
            seenNonZero = true
            for index in bytes.indices.reversed() {
                carry += Int(bytes[index]) * 58
                bytes[index] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.insert(UInt8(carry & 0xff), at: 0)
                carry >>= 8
            }
        }
        return [UInt8](repeating: 0, count: leadingZeros) + bytes
    }

    /// Encodes bytes as Base58.
    public static func encode(_ bytes: [UInt8]) -> String {
        let leadingZeros = bytes.prefix { $0 == 0 }.count
        var digits: [UInt8] = []
        for byte in bytes.dropFirst(leadingZeros) {
            var carry = Int(byte)
            for index in digits.indices.reversed() {
                carry += Int(digits[index]) << 8
                digits[index] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.insert(UInt8(carry % 58), at: 0)
                carry /= 58
            }
        }
        let text = [UInt8](repeating: alphabet[0], count: leadingZeros) + digits.map { alphabet[Int($0)] }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Bech32 (BIP-173) and Bech32m (BIP-350) decoding, and segwit address decoding.
public enum Bech32 {
    /// The checksum variant of a Bech32 string.
    public enum Variant: Sendable, Hashable {
        /// BIP-173 Bech32, used by segwit version 0.
        case bech32
        /// BIP-350 Bech32m, used by segwit versions 1 to 16.
        case bech32m
    }

    /// A decoded Bech32 string.
    public struct Decoded: Sendable, Hashable {
        /// The human-readable part, lower case.
        public let humanReadablePart: String
        /// The data part as 5-bit values, without the checksum.
        public let data: [UInt8]
        /// The checksum variant that matched.
        public let variant: Variant
    }

    /// A decoded segwit address.
    public struct SegwitAddress: Sendable, Hashable {
        /// The witness version, 0 to 16.
        public let version: Int
        /// The witness program, 2 to 40 bytes.
        public let program: [UInt8]
    }

    private static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let bech32Constant: UInt32 = 1
    private static let bech32mConstant: UInt32 = 0x2bc8_30a3

    /// Decodes a Bech32 or Bech32m string (at most 90 characters, not mixed case).
    public static func decode(_ string: String) -> Decoded? {
        let bytes = Array(string.utf8)
        guard bytes.count <= 90, bytes.allSatisfy({ $0 >= 33 && $0 <= 126 }) else { return nil }
        let hasLower = bytes.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        let hasUpper = bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        guard !(hasLower && hasUpper) else { return nil }
        let lower = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator >= 1,
            separator + 7 <= lower.count
        else { return nil }
        let hrp = Array(lower[..<separator])
        var data: [UInt8] = []
        for character in lower[(separator + 1)...] {
            guard let value = charset.firstIndex(of: character) else { return nil }
            data.append(UInt8(value))
        }
        let checksum = polymod(expand(hrp) + data)
        let variant: Variant
        switch checksum {
        case bech32Constant: variant = .bech32
        case bech32mConstant: variant = .bech32m
        default: return nil
        }
        return Decoded(
            humanReadablePart: String(decoding: hrp, as: UTF8.self), data: Array(data.dropLast(6)),
            variant: variant)
    }

    /// Decodes a segwit address for `humanReadablePart` (`bc` on Bitcoin mainnet), enforcing
    /// Bech32 for version 0 and Bech32m for versions 1 and above.
    public static func decodeSegwit(_ string: String, humanReadablePart: String) -> SegwitAddress? {
        guard let decoded = decode(string), decoded.humanReadablePart == humanReadablePart,
            let segwit = segwitAddress(from: decoded), decoded.variant == requiredVariant(version: segwit.version)
        else { return nil }
        return segwit
    }

    /// The witness version and program of decoded data: version 0 to 16, program 2 to 40 bytes
    /// (20 or 32 for version 0), without checking the checksum variant.
    public static func segwitAddress(from decoded: Decoded) -> SegwitAddress? {
        guard let version = decoded.data.first, version <= 16,
            let program = convertBits(Array(decoded.data.dropFirst()), from: 5, to: 8, pad: false),
            (2...40).contains(program.count)
        else { return nil }
        if version == 0 && program.count != 20 && program.count != 32 { return nil }
        return SegwitAddress(version: Int(version), program: program)
    }

    /// The checksum variant BIP-350 requires for a witness version.
    public static func requiredVariant(version: Int) -> Variant {
        version == 0 ? .bech32 : .bech32m
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
        var checksum: UInt32 = 1
        for value in values {
            let top = checksum >> 25
            checksum = (checksum & 0x1ff_ffff) << 5 ^ UInt32(value)
            for bit in 0..<5 where (top >> UInt32(bit)) & 1 == 1 {
                checksum ^= generator[bit]
            }
        }
        return checksum
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    private static func convertBits(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator = 0
        var bits = 0
        var result: [UInt8] = []
        let maximum = (1 << to) - 1
        for value in data {
            guard Int(value) >> from == 0 else { return nil }
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                result.append(UInt8((accumulator >> bits) & maximum))
            }
        }
        if pad {
            if bits > 0 { result.append(UInt8((accumulator << (to - bits)) & maximum)) }
        } else if bits >= from || (accumulator << (to - bits)) & maximum != 0 {
            return nil
        }
        return result
    }
}

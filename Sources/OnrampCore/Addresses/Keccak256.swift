/// A pure-Swift Keccak-256 (the original Keccak padding used by Ethereum, not SHA3-256).
///
/// Used for EIP-55 address checksums.
public enum Keccak256 {
    private static let roundConstants: [UInt64] = [
        0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808a, 0x8000_0000_8000_8000,
        0x0000_0000_0000_808b, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
        0x0000_0000_0000_008a, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000a,
        0x0000_0000_8000_808b, 0x8000_0000_0000_008b, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
        0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800a, 0x8000_0000_8000_000a,
        0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
    ]
    private static let rotations: [UInt64] = [
        0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
    ]
    private static let rate = 136

    /// The 32-byte Keccak-256 digest of `message`.
    public static func hash<Bytes: Collection>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var padded = Array(message)
        padded.append(0x01)
        while padded.count % rate != 0 { padded.append(0) }
        padded[padded.count - 1] |= 0x80
        var state = [UInt64](repeating: 0, count: 25)
        for blockStart in stride(from: 0, to: padded.count, by: rate) {
            for lane in 0..<(rate / 8) {
                var word: UInt64 = 0
                for byte in 0..<8 {
                    word |= UInt64(padded[blockStart + lane * 8 + byte]) << UInt64(8 * byte)
                }
                state[lane] ^= word
            }
            permute(&state)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for lane in 0..<4 {
            for byte in 0..<8 {
                digest.append(UInt8(truncatingIfNeeded: state[lane] >> UInt64(8 * byte)))
            }
        }
        return digest
    }

    private static func permute(_ state: inout [UInt64]) {
        var columns = [UInt64](repeating: 0, count: 5)
        var rotated = [UInt64](repeating: 0, count: 25)
        for round in 0..<24 {
            for x in 0..<5 {
                columns[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]
            }
            for x in 0..<5 {
                let mix = columns[(x + 4) % 5] ^ rotateLeft(columns[(x + 1) % 5], 1)
                for y in stride(from: 0, to: 25, by: 5) { state[y + x] ^= mix }
            }
            for x in 0..<5 {
                for y in 0..<5 {
                    let index = x + 5 * y
                    rotated[y + 5 * ((2 * x + 3 * y) % 5)] = rotateLeft(state[index], rotations[index])
                }
            }
            for y in stride(from: 0, to: 25, by: 5) {
                for x in 0..<5 {
                    state[y + x] = rotated[y + x] ^ (~rotated[y + (x + 1) % 5] & rotated[y + (x + 2) % 5])
                }
            }
            state[0] ^= roundConstants[round]
        }
    }

    private static func rotateLeft(_ value: UInt64, _ amount: UInt64) -> UInt64 {
        amount == 0 ? value : (value << amount) | (value >> (64 - amount))
    }
}

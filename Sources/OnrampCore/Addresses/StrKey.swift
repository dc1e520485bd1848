/// Stellar StrKey decoding (base32 with a version byte and a CRC16-XModem checksum).
public enum StrKey {
    /// The version byte of an ed25519 public key (`G…` account ids).
    public static let accountIDVersion: UInt8 = 6 << 3

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Decodes a 56-character account id (`G…`) to its 32-byte public key, or `nil` when the
    /// characters, length, version byte or checksum are wrong.
    public static func decodeAccountID(_ string: String) -> [UInt8]? {
        let characters = Array(string.utf8)
        guard characters.count == 56 else { return nil }
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in characters {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 0xff))
            }
        }
        guard buffer & ((1 << bits) - 1) == 0, bytes.count == 35, bytes[0] == accountIDVersion
        else { return nil }
        let payload = Array(bytes[0..<33])
        let checksum = crc16XModem(payload)
        guard bytes[33] == UInt8(checksum & 0xff), bytes[34] == UInt8(checksum >> 8) else { return nil }
        return Array(payload.dropFirst())
    }

    /// The CRC16-XModem checksum (polynomial 0x1021, initial value 0).
    public static func crc16XModem(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}

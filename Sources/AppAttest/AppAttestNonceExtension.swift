/// The leaf certificate extension 1.2.840.113635.100.8.2 carrying the attestation nonce as
/// DER `SEQUENCE { [1] EXPLICIT { OCTET STRING (32) } }`.
public enum AppAttestNonceExtension {
    /// The extension OID.
    public static let oid = "1.2.840.113635.100.8.2"

    /// The DER extension value for `nonce` (32 bytes).
    public static func encode(_ nonce: [UInt8]) -> [UInt8] {
        [0x30, UInt8(nonce.count + 4), 0xA1, UInt8(nonce.count + 2), 0x04, UInt8(nonce.count)] + nonce
    }

    /// The 32-byte nonce inside a DER extension value, or `nil` when the encoding is not exactly that shape.
    public static func decode(_ value: [UInt8]) -> [UInt8]? {
        guard let sequence = element(value, tag: 0x30), let tagged = element(sequence, tag: 0xA1),
            let octets = element(tagged, tag: 0x04), octets.count == 32
        else { return nil }
        return octets
    }

    /// The contents of a DER element with `tag` that spans all of `bytes` (short or long definite length).
    private static func element(_ bytes: [UInt8], tag: UInt8) -> [UInt8]? {
        guard bytes.count >= 2, bytes[0] == tag else { return nil }
        var length = Int(bytes[1])
        var start = 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 2, bytes.count >= 2 + count else { return nil }
            length = bytes[2..<2 + count].reduce(0) { $0 << 8 | Int($1) }
            guard length >= 0x80 else { return nil }
            start = 2 + count
        }
        guard bytes.count == start + length else { return nil }
        return Array(bytes[start...])
    }
}

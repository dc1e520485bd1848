/// Standard base64 (RFC 4648 section 4) with padding.
public enum Base64 {
    /// Encodes `bytes` as padded standard base64.
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.standard.encode(bytes, padded: true)
    }

    /// Decodes padded standard base64 strictly: no whitespace, no URL-safe characters, correct padding,
    /// zero unused bits. Returns `nil` otherwise.
    public static func decode(_ text: String) -> [UInt8]? {
        Base64Codec.standard.decode(text, requirePadding: true, allowPadding: true)
    }
}

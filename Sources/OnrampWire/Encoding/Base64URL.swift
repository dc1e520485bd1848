/// URL-safe base64 (RFC 4648 section 5), as used by JWS.
public enum Base64URL {
    /// Encodes `bytes` as base64url, without padding unless `padded` is true.
    public static func encode(_ bytes: [UInt8], padded: Bool = false) -> String {
        Base64Codec.url.encode(bytes, padded: padded)
    }

    /// Decodes base64url with or without correct padding, strictly (alphabet only, zero unused bits).
    /// Returns `nil` otherwise.
    public static func decode(_ text: String) -> [UInt8]? {
        Base64Codec.url.decode(text, requirePadding: false, allowPadding: true)
    }

    /// Decodes base64url that must not carry padding (the JWS form).
    public static func decodeUnpadded(_ text: String) -> [UInt8]? {
        Base64Codec.url.decode(text, requirePadding: false, allowPadding: false)
    }
}

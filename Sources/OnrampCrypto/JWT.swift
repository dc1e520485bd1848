import OnrampWire

/// JSON Web Tokens in JWS compact serialization, signed with ES256 or EdDSA.
public enum JWT {
    /// Signs `claims` with `key` and returns `header.payload.signature` (base64url without padding).
    /// The header's `alg` is set from the key.
    public static func sign(header: JWTHeader, claims: JWTClaims, key: JWTSigningKey) throws -> String {
        try sign(header: header, payload: Array(claims.json.utf8), key: key)
    }

    /// Signs an arbitrary JSON `payload` (bytes used as given) with `key`.
    public static func sign(header: JWTHeader, payload: [UInt8], key: JWTSigningKey) throws -> String {
        var header = header
        header.algorithm = key.algorithm.rawValue
        let signingInput =
            Base64URL.encode(Array(header.json.utf8)) + "." + Base64URL.encode(payload)
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}

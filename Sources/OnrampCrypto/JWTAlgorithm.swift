/// JWS algorithms supported for JWTs.
public enum JWTAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA P-256 with SHA-256; the signature is raw r ‖ s (64 bytes).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037).
    case edDSA = "EdDSA"
}

/// A JWT whose signature and claims passed a ``JWTVerifier``.
public struct VerifiedJWT: Sendable {
    /// The decoded header.
    public let header: JWTHeader
    /// The decoded known claims.
    public let claims: JWTClaims
    /// The payload JSON exactly as signed, for claims OnrampKit does not model.
    public let payload: [UInt8]
}

/// A failure from OnrampCrypto. Compare on ``code``; ``message`` is for developers and never contains
/// key material, secrets or token contents.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable failure code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as a snake_case string.
        public let rawValue: String

        /// Creates a code from its string form.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code as a snake_case string.
        public var description: String { rawValue }

        /// Bytes or text could not be decoded (base64, hex, DER, PEM, JSON).
        public static let invalidEncoding = Code(rawValue: "invalid_encoding")
        /// A key could not be loaded or has the wrong type or curve.
        public static let invalidKey = Code(rawValue: "invalid_key")
        /// A signature did not verify or is malformed.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// A certificate could not be parsed or built.
        public static let invalidCertificate = Code(rawValue: "invalid_certificate")
        /// A certificate chain did not verify against the trusted roots at the given time.
        public static let certificateChain = Code(rawValue: "certificate_chain")
        /// A JWT is not well-formed JWS compact serialization with JSON header and claims.
        public static let malformedToken = Code(rawValue: "malformed_token")
        /// A JWT names an algorithm that is not accepted for the key.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_algorithm")
        /// A JWT is past its `exp` (plus leeway).
        public static let tokenExpired = Code(rawValue: "token_expired")
        /// A JWT is before its `nbf` (minus leeway).
        public static let tokenNotYetValid = Code(rawValue: "token_not_yet_valid")
        /// A JWT's `aud` does not satisfy the audience policy.
        public static let audienceMismatch = Code(rawValue: "audience_mismatch")
        /// A JWT's `iss` is not the expected issuer.
        public static let issuerMismatch = Code(rawValue: "issuer_mismatch")
        /// A required JWT claim is absent.
        public static let missingClaim = Code(rawValue: "missing_claim")
        /// A custom claim predicate rejected the JWT.
        public static let claimRejected = Code(rawValue: "claim_rejected")
        /// No verification key is known for the JWT's header.
        public static let keyNotFound = Code(rawValue: "key_not_found")
        /// OpenSSL failed in a way that does not depend on the input.
        public static let internalFailure = Code(rawValue: "internal_failure")
    }

    /// The stable failure code.
    public let code: Code
    /// A developer-facing explanation without secrets.
    public let message: String

    /// Creates an error with a code and an optional developer message.
    public init(code: Code, message: String = "") {
        self.code = code
        self.message = message
    }

    /// `CryptoError(code): message`.
    public var description: String {
        message.isEmpty ? "CryptoError(\(code))" : "CryptoError(\(code)): \(message)"
    }
}

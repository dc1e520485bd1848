/// A private key that can sign JWTs.
public enum JWTSigningKey: Sendable {
    /// ES256.
    case p256(P256.PrivateKey)
    /// EdDSA.
    case ed25519(Ed25519.PrivateKey)

    /// The algorithm this key signs with.
    public var algorithm: JWTAlgorithm {
        switch self {
        case .p256: .es256
        case .ed25519: .edDSA
        }
    }

    /// The matching verification key.
    public var verificationKey: JWTVerificationKey {
        switch self {
        case .p256(let key): .p256(key.publicKey)
        case .ed25519(let key): .ed25519(key.publicKey)
        }
    }

    func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch self {
        case .p256(let key): try key.signature(for: message).rawRepresentation
        case .ed25519(let key): try key.signature(for: message)
        }
    }
}

/// A public key that can verify JWTs; it fixes the one algorithm accepted.
public enum JWTVerificationKey: Sendable, Equatable {
    /// ES256.
    case p256(P256.PublicKey)
    /// EdDSA.
    case ed25519(Ed25519.PublicKey)

    /// The only algorithm accepted with this key.
    public var algorithm: JWTAlgorithm {
        switch self {
        case .p256: .es256
        case .ed25519: .edDSA
        }
    }

    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .p256(let key):
            guard let parsed = try? P256.Signature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        }
    }
}

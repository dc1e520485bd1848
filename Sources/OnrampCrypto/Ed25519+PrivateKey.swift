import COpenSSL

extension Ed25519 {
    /// An Ed25519 private key. Its `description` never shows key material.
    public struct PrivateKey: Sendable, CustomStringConvertible {
        let key: EVPKey

        /// Generates a new random key.
        public init() throws {
            key = try EVPKey.generate(name: "ED25519", group: nil)
        }

        /// Creates the key whose 32-byte private seed is `seed`.
        public init(seed: [UInt8]) throws {
            key = try EVPKey.ed25519(raw: seed, isPrivate: true)
        }

        /// Loads a PKCS#8 "PRIVATE KEY" PEM holding an Ed25519 key.
        public init(pemRepresentation: String) throws {
            let key = try EVPKey.privateKey(pem: pemRepresentation)
            guard key.baseID == NID_ED25519 else { throw CryptoError(code: .invalidKey, message: "not Ed25519") }
            self.key = key
        }

        /// The 32-byte private seed.
        public var seed: [UInt8] {
            get throws { try key.rawKey(isPrivate: true) }
        }

        /// The matching public key.
        public var publicKey: PublicKey {
            // A loaded or generated Ed25519 key always has a raw public form.
            try! PublicKey(rawRepresentation: key.rawKey(isPrivate: false))
        }

        /// Unencrypted PKCS#8 PEM.
        public var pemRepresentation: String {
            get throws { try key.privateKeyPEM(traditional: false) }
        }

        /// Signs `message` (64-byte signature).
        public func signature(for message: [UInt8]) throws -> [UInt8] {
            try key.sign(message, digest: nil)
        }

        /// `Ed25519.PrivateKey(<redacted>)`.
        public var description: String { "Ed25519.PrivateKey(<redacted>)" }
    }
}

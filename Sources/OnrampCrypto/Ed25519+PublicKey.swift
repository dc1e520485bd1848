import COpenSSL

extension Ed25519 {
    /// An Ed25519 public key.
    public struct PublicKey: Sendable, Equatable {
        let key: EVPKey
        /// The 32-byte public key.
        public let rawRepresentation: [UInt8]

        /// Loads a raw 32-byte public key.
        public init(rawRepresentation: [UInt8]) throws {
            key = try EVPKey.ed25519(raw: rawRepresentation, isPrivate: false)
            self.rawRepresentation = rawRepresentation
        }

        /// Loads a "PUBLIC KEY" PEM holding an Ed25519 key.
        public init(pemRepresentation: String) throws {
            let key = try EVPKey.publicKey(pem: pemRepresentation)
            guard key.baseID == NID_ED25519 else { throw CryptoError(code: .invalidKey, message: "not Ed25519") }
            self.key = key
            rawRepresentation = try key.rawKey(isPrivate: false)
        }

        /// "PUBLIC KEY" PEM.
        public var pemRepresentation: String {
            get throws { try key.publicKeyPEM() }
        }

        /// Whether `signature` (64 bytes) is valid for `message`.
        public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
            guard signature.count == 64 else { return false }
            return key.verify(signature: signature, message: message, digest: nil)
        }

        /// Keys are equal when their raw bytes are equal.
        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
            lhs.rawRepresentation == rhs.rawRepresentation
        }
    }
}

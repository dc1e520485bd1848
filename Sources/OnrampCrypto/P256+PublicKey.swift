import COpenSSL

extension P256 {
    /// A P-256 public key.
    public struct PublicKey: Sendable, Equatable {
        let key: EVPKey
        /// The uncompressed point 0x04 ‖ X ‖ Y (65 bytes).
        public let x963Representation: [UInt8]

        /// DER SubjectPublicKeyInfo prefix for an uncompressed P-256 point (id-ecPublicKey, prime256v1).
        private static let spkiPrefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
            0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ]

        /// Loads an uncompressed X9.63 point (65 bytes, 0x04 ‖ X ‖ Y); the point must be on the curve.
        public init(x963Representation: [UInt8]) throws {
            guard x963Representation.count == 65, x963Representation[0] == 0x04 else {
                throw CryptoError(code: .invalidKey, message: "expected a 65-byte uncompressed P-256 point")
            }
            self.key = try EVPKey.p256PublicKey(point: x963Representation)
            self.x963Representation = x963Representation
        }

        /// Loads a "PUBLIC KEY" PEM (SubjectPublicKeyInfo).
        public init(pemRepresentation: String) throws {
            try self.init(checking: EVPKey.publicKey(pem: pemRepresentation))
        }

        /// Loads a DER SubjectPublicKeyInfo.
        public init(derRepresentation: [UInt8]) throws {
            try self.init(checking: EVPKey.publicKey(der: derRepresentation))
        }

        init(checking key: EVPKey) throws {
            guard key.isP256 else { throw CryptoError(code: .invalidKey, message: "not a P-256 key") }
            let point = try key.encodedECPoint()
            guard point.count == 65, point[0] == 0x04 else {
                throw CryptoError(code: .invalidKey, message: "P-256 point is not uncompressed")
            }
            self.key = key
            self.x963Representation = point
        }

        /// DER SubjectPublicKeyInfo.
        public var derRepresentation: [UInt8] { Self.spkiPrefix + x963Representation }

        /// "PUBLIC KEY" PEM.
        public var pemRepresentation: String {
            get throws { try key.publicKeyPEM() }
        }

        /// Whether `signature` is a valid ECDSA signature of SHA-256(`message`).
        public func isValidSignature(_ signature: Signature, for message: [UInt8]) -> Bool {
            guard let der = try? signature.derRepresentation else { return false }
            return key.verify(signature: der, message: message, digest: FetchedDigest.sha256)
        }

        /// Whether the DER-encoded ECDSA signature, exactly as received, is valid for SHA-256(`message`).
        /// OpenSSL refuses non-canonical DER.
        public func isValidSignature(derRepresentation: [UInt8], for message: [UInt8]) -> Bool {
            key.verify(signature: derRepresentation, message: message, digest: FetchedDigest.sha256)
        }

        /// Keys are equal when their points are equal.
        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
            lhs.x963Representation == rhs.x963Representation
        }
    }
}

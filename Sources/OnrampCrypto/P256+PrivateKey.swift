import COpenSSL

extension P256 {
    /// A P-256 private key. Its `description` never shows key material.
    public struct PrivateKey: Sendable, CustomStringConvertible {
        let key: EVPKey

        /// Generates a new random key.
        public init() throws {
            key = try EVPKey.generate(name: "EC", group: "P-256")
        }

        /// Loads a PEM key: "EC PRIVATE KEY" (SEC 1) or "PRIVATE KEY" (PKCS#8), unencrypted.
        public init(pemRepresentation: String) throws {
            try self.init(checking: EVPKey.privateKey(pem: pemRepresentation))
        }

        /// Loads a DER key: SEC 1 ECPrivateKey or PKCS#8.
        public init(derRepresentation: [UInt8]) throws {
            try self.init(checking: EVPKey.privateKey(der: derRepresentation))
        }

        private init(checking key: EVPKey) throws {
            guard key.isP256 else { throw CryptoError(code: .invalidKey, message: "not a P-256 key") }
            self.key = key
        }

        /// The matching public key.
        public var publicKey: PublicKey {
            // The public point of a loaded or generated key is always present and encodable.
            try! PublicKey(x963Representation: key.encodedECPoint())
        }

        /// Unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY").
        public var pemRepresentation: String {
            get throws { try key.privateKeyPEM(traditional: false) }
        }

        /// Unencrypted SEC 1 PEM ("BEGIN EC PRIVATE KEY"), the form CDP API key secrets use.
        public var ecPEMRepresentation: String {
            get throws { try key.privateKeyPEM(traditional: true) }
        }

        /// Unencrypted PKCS#8 DER.
        public var derRepresentation: [UInt8] {
            get throws { try key.privateKeyPKCS8DER() }
        }

        /// Signs SHA-256(`message`) with ECDSA.
        public func signature(for message: [UInt8]) throws -> Signature {
            try Signature(derRepresentation: key.sign(message, digest: FetchedDigest.sha256))
        }

        /// `P256.PrivateKey(<redacted>)`.
        public var description: String { "P256.PrivateKey(<redacted>)" }
    }
}

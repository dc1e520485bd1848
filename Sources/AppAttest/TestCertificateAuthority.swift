import Foundation
import OnrampCrypto
import OnrampWire

/// A local App Attest certificate authority (root → intermediate → leaves, all P-256) for the software
/// attester. Trust its root only in sandboxes and tests, never in place of Apple's root.
public struct TestCertificateAuthority: Sendable {
    /// The self-signed root; give it to verifiers as a trusted root.
    public let rootCertificate: X509Certificate
    /// The root's key.
    public let rootKey: P256.PrivateKey
    /// The intermediate that signs leaves.
    public let intermediateCertificate: X509Certificate
    /// The intermediate's key.
    public let intermediateKey: P256.PrivateKey

    /// File names used by ``save(to:)`` and ``init(directory:)``.
    public enum FileName {
        /// The root certificate (PEM), the file to pass as `--trust-root`.
        public static let root = "root.pem"
        /// The root key (PKCS#8 PEM).
        public static let rootKey = "root-key.pem"
        /// The intermediate certificate (PEM).
        public static let intermediate = "intermediate.pem"
        /// The intermediate key (PKCS#8 PEM).
        public static let intermediateKey = "intermediate-key.pem"
    }

    /// Wraps existing certificates and keys.
    public init(
        rootCertificate: X509Certificate, rootKey: P256.PrivateKey, intermediateCertificate: X509Certificate,
        intermediateKey: P256.PrivateKey
    ) {
        self.rootCertificate = rootCertificate
        self.rootKey = rootKey
        self.intermediateCertificate = intermediateCertificate
        self.intermediateKey = intermediateKey
    }

    /// Creates a new root and intermediate valid from `time` for `validity` seconds (default 20 years).
    public static func create(
        name: String = "OnrampKit Test App Attestation", at time: Date, validity: TimeInterval = 20 * 365 * 86_400
    ) throws -> TestCertificateAuthority {
        let rootKey = try P256.PrivateKey()
        let intermediateKey = try P256.PrivateKey()
        let start = time.addingTimeInterval(-3_600)
        let root = try X509CertificateBuilder(
            serialNumber: serialNumber(), subject: [("CN", "\(name) Root CA"), ("O", "OnrampKit")],
            notBefore: start, notAfter: time.addingTimeInterval(validity), publicKey: rootKey.publicKey,
            extensions: [.basicConstraints(isCA: true), .keyUsageCertificateSigning]
        ).sign(issuer: nil, issuerKey: rootKey)
        let intermediate = try X509CertificateBuilder(
            serialNumber: serialNumber(), subject: [("CN", "\(name) CA 1"), ("O", "OnrampKit")],
            notBefore: start, notAfter: time.addingTimeInterval(validity), publicKey: intermediateKey.publicKey,
            extensions: [.basicConstraints(isCA: true, pathLength: 0), .keyUsageCertificateSigning]
        ).sign(issuer: root, issuerKey: rootKey)
        return TestCertificateAuthority(
            rootCertificate: root, rootKey: rootKey, intermediateCertificate: intermediate,
            intermediateKey: intermediateKey)
    }

    /// Loads an authority written by ``save(to:)``.
    public init(directory: URL) throws {
        func read(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        self.init(
            rootCertificate: try X509Certificate(pemRepresentation: read(FileName.root)),
            rootKey: try P256.PrivateKey(pemRepresentation: read(FileName.rootKey)),
            intermediateCertificate: try X509Certificate(pemRepresentation: read(FileName.intermediate)),
            intermediateKey: try P256.PrivateKey(pemRepresentation: read(FileName.intermediateKey)))
    }

    /// Writes the four PEM files into `directory` (created if needed); key files get mode 0600.
    public func save(to directory: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let files: [(String, String, Bool)] = [
            (FileName.root, rootCertificate.pemRepresentation, false),
            (FileName.rootKey, try rootKey.pemRepresentation, true),
            (FileName.intermediate, intermediateCertificate.pemRepresentation, false),
            (FileName.intermediateKey, try intermediateKey.pemRepresentation, true),
        ]
        for (name, text, secret) in files {
            let path = directory.appendingPathComponent(name).path
            guard
                manager.createFile(
                    atPath: path, contents: Data(text.utf8), attributes: secret ? [.posixPermissions: 0o600] : nil)
            else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        }
    }

    /// Issues an App Attest leaf for `publicKey` carrying `nonce` in extension 1.2.840.113635.100.8.2,
    /// valid from `time` for `validity` seconds (Apple's recent leaves live about a year).
    public func issueLeaf(
        publicKey: P256.PublicKey, nonce: [UInt8], at time: Date, validity: TimeInterval = 365 * 86_400
    ) throws -> X509Certificate {
        let keyHash = Hex.encode(SHA256.hash(publicKey.x963Representation))
        return try X509CertificateBuilder(
            serialNumber: Self.serialNumber(),
            subject: [("CN", keyHash), ("OU", "AAA Certification"), ("O", "OnrampKit Software Attester")],
            notBefore: time, notAfter: time.addingTimeInterval(validity), publicKey: publicKey,
            extensions: [
                .basicConstraints(isCA: false), .keyUsageDigitalSignature,
                X509Extension(
                    oid: AppAttestNonceExtension.oid, critical: false, value: AppAttestNonceExtension.encode(nonce)),
            ]
        ).sign(issuer: intermediateCertificate, issuerKey: intermediateKey)
    }

    private static func serialNumber() -> [UInt8] {
        var bytes = SecureRandom.bytes(8)
        bytes[0] = bytes[0] & 0x7F | 0x01
        return bytes
    }
}

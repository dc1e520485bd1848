import Foundation
import OnrampCrypto
import OnrampWire
import Testing

@Suite struct X509CertificateTests {
    /// The repository's copy of Apple's root (empty when missing: the tests using it fail, the run goes on).
    static let appleRootPEM =
        (try? String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/Apple_App_Attestation_Root_CA.pem"),
            encoding: .utf8)) ?? ""

    @Test func parsesAppleRoot() throws {
        let root = try X509Certificate(pemRepresentation: Self.appleRootPEM)
        #expect(root.subject == "CN=Apple App Attestation Root CA, O=Apple Inc., ST=California")
        #expect(root.issuer == root.subject)
        #expect(root.notBefore == Date(timeIntervalSince1970: 1_584_556_373))
        #expect(
            Hex.encode(SHA256.hash(root.derRepresentation)).uppercased()
                == "1CB9823BA28BA6AD2D33A006941DE2AE4F513EF1D4E831B9F7E0FA7B6242C932")
        #expect(root.isCertificateAuthority)
        #expect(root.extensionValue(oid: "2.5.29.19") == [0x30, 0x03, 0x01, 0x01, 0xFF])
        #expect(try root.publicKeyX963.count == 97)
        #expect(throws: CryptoError.self) { try root.p256PublicKey }
        #expect(try X509Certificate(derRepresentation: root.derRepresentation) == root)
        #expect(try X509Certificate(pemRepresentation: root.pemRepresentation) == root)
    }

    @Test func refusesGarbage() {
        #expect(throws: CryptoError.self) { try X509Certificate(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(throws: CryptoError.self) { try X509Certificate(pemRepresentation: "nothing") }
    }

    @Test func buildsAndVerifiesAChain() throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let rootKey = try P256.PrivateKey()
        let leafKey = try P256.PrivateKey()
        let root = try X509CertificateBuilder(
            serialNumber: [1], subject: [("CN", "Root")], notBefore: now, notAfter: now + 86_400,
            publicKey: rootKey.publicKey, extensions: [.basicConstraints(isCA: true), .keyUsageCertificateSigning]
        ).sign(issuer: nil, issuerKey: rootKey)
        let leaf = try X509CertificateBuilder(
            serialNumber: [2], subject: [("CN", "Leaf"), ("O", "Test")], notBefore: now, notAfter: now + 3_600,
            publicKey: leafKey.publicKey,
            extensions: [
                .basicConstraints(isCA: false), X509Extension(oid: "1.2.3.4.5", critical: false, value: [0x05, 0x00]),
            ]
        ).sign(issuer: root, issuerKey: rootKey)
        #expect(leaf.subject == "CN=Leaf, O=Test")
        #expect(leaf.issuer == "CN=Root")
        #expect(leaf.extensionValue(oid: "1.2.3.4.5") == [0x05, 0x00])
        #expect(try leaf.p256PublicKey == leafKey.publicKey)
        #expect(!leaf.isCertificateAuthority)
        try leaf.verifyChain(intermediates: [], trustedRoots: [root], at: now + 60)
        let late = #expect(throws: CryptoError.self) {
            try leaf.verifyChain(intermediates: [], trustedRoots: [root], at: now + 3_601)
        }
        #expect(late?.code == .certificateChain)
        #expect(throws: CryptoError.self) { try leaf.verifyChain(intermediates: [], trustedRoots: [], at: now + 60) }
    }
}

import OnrampCrypto
import OnrampWire
import Testing

@Suite struct KeyTests {
    @Test func p256SignVerifyAndConversions() throws {
        let key = try P256.PrivateKey()
        let message = Array("hello".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.rawRepresentation.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Array("hellO".utf8)))
        let der = try signature.derRepresentation
        #expect(try P256.Signature(derRepresentation: der) == signature)
        #expect(key.publicKey.isValidSignature(derRepresentation: der, for: message))
        #expect(throws: CryptoError.self) { try P256.Signature(derRepresentation: der + [0]) }
        #expect(throws: CryptoError.self) { try P256.Signature(rawRepresentation: [UInt8](repeating: 1, count: 63)) }
    }

    @Test func p256KeyFormats() throws {
        let key = try P256.PrivateKey()
        let pkcs8 = try key.pemRepresentation
        let sec1 = try key.ecPEMRepresentation
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        #expect(try P256.PrivateKey(pemRepresentation: pkcs8).publicKey == key.publicKey)
        #expect(try P256.PrivateKey(pemRepresentation: sec1).publicKey == key.publicKey)
        #expect(try P256.PrivateKey(derRepresentation: key.derRepresentation).publicKey == key.publicKey)
        let publicKey = key.publicKey
        #expect(publicKey.x963Representation.count == 65)
        #expect(try P256.PublicKey(derRepresentation: publicKey.derRepresentation) == publicKey)
        #expect(try P256.PublicKey(pemRepresentation: publicKey.pemRepresentation) == publicKey)
        #expect(!String(describing: key).contains("BEGIN"))
    }

    @Test func p256RefusesOtherKeys() throws {
        #expect(throws: CryptoError.self) {
            try P256.PublicKey(x963Representation: [0x04] + [UInt8](repeating: 1, count: 64))
        }
        let edwards = try Ed25519.PrivateKey()
        #expect(throws: CryptoError.self) { try P256.PrivateKey(pemRepresentation: edwards.pemRepresentation) }
    }

    /// RFC 8032 section 7.1, test 1.
    @Test func ed25519RFC8032() throws {
        let seed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
        let key = try Ed25519.PrivateKey(seed: seed)
        #expect(
            Hex.encode(key.publicKey.rawRepresentation)
                == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try key.signature(for: [])
        #expect(
            Hex.encode(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        #expect(key.publicKey.isValidSignature(signature, for: []))
        #expect(!key.publicKey.isValidSignature(signature, for: [0]))
        #expect(try key.seed == seed)
        #expect(try Ed25519.PrivateKey(pemRepresentation: key.pemRepresentation).publicKey == key.publicKey)
        #expect(try Ed25519.PublicKey(pemRepresentation: key.publicKey.pemRepresentation) == key.publicKey)
    }
}

import OnrampCrypto
import OnrampTestSupport
import OnrampWire
import Testing

/// AES-256-GCM against the GCM specification's test cases 14 and 16 (McGrew & Viega), round trips and
/// every kind of tampering.
@Suite struct AESGCMTests {
    private static func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex)! }

    @Test(arguments: [
        (
            "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000",
            "00000000000000000000000000000000", "",
            "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919"
        ),
        (
            "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                + "76fc6ece0f4e1768cddf8853bb2d551b"
        ),
    ])
    func opensTheSpecificationsVectors(key: String, nonce: String, plaintext: String, aad: String, sealed: String)
        throws
    {
        let opened = try AESGCM.open(
            Self.bytes(nonce + sealed), key: Self.bytes(key), associatedData: Self.bytes(aad))
        #expect(opened == Self.bytes(plaintext))
    }

    @Test func pythonsCryptographyOpensWhatWeSeal() async throws {
        let key = SecureRandom.bytes(32)
        let message = Array("an idempotent response with a secret in it".utf8)
        let aad = Array("project|key".utf8)
        let sealed = try AESGCM.seal(message, key: key, associatedData: aad)
        let output = try await Python.run("aesgcm_open.py", [Hex.encode(key), Hex.encode(sealed), Hex.encode(aad)])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == Hex.encode(message))
    }

    @Test func sealsWithAFreshNonceAndRefusesEveryTampering() throws {
        let key = SecureRandom.bytes(32)
        let message = Array("{\"secret\":\"cscs_123\"}".utf8)
        let aad = Array("project|key".utf8)
        let sealed = try AESGCM.seal(message, key: key, associatedData: aad)
        #expect(sealed.count == 12 + message.count + 16)
        #expect(try AESGCM.open(sealed, key: key, associatedData: aad) == message)
        #expect(try AESGCM.seal(message, key: key, associatedData: aad) != sealed)
        #expect(try AESGCM.open(try AESGCM.seal([], key: key), key: key) == [])
        var flipped = sealed
        flipped[20] ^= 1
        for (bytes, key, aad) in [
            (flipped, key, aad), (sealed, SecureRandom.bytes(32), aad), (sealed, key, Array("other|key".utf8)),
            (Array(sealed.prefix(27)), key, aad),
        ] {
            let error = #expect(throws: CryptoError.self) { try AESGCM.open(bytes, key: key, associatedData: aad) }
            #expect(error?.code == .invalidSignature)
        }
        let shortKey = #expect(throws: CryptoError.self) { try AESGCM.seal(message, key: [1, 2, 3]) }
        #expect(shortKey?.code == .invalidKey)
    }
}

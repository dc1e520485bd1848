import OnrampCore
import OnrampCrypto
import OnrampWire
import Testing

@Suite struct HashTests {
    @Test func sha256KnownAnswers() {
        #expect(Hex.encode(SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// OnrampCore's pure-Swift SHA-256 (the app SDK's and the address checksums'; its FIPS vectors are in
    /// OnrampCoreTests' DigestTests) gives OpenSSL's digest at every length around the padding's block boundaries.
    @Test func portableSHA256AgreesWithOpenSSL() {
        var bytes: [UInt8] = []
        for length in 0...200 {
            #expect(PortableSHA256.hash(bytes) == SHA256.hash(bytes), "length \(length)")
            bytes.append(UInt8(truncatingIfNeeded: length &* 131 &+ 7))
        }
    }

    @Test func hmacRFC4231() {
        let mac = HMACSHA256.authenticationCode(key: "Jefe", message: "what do ya want for nothing?")
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // An empty key (Python: hmac.new(b"", b"", hashlib.sha256)), and one MAC after another from the
        // shared template: each call is keyed afresh, none sees the previous call's key.
        #expect(
            Hex.encode(HMACSHA256.authenticationCode(key: [], message: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        #expect(
            Hex.encode(HMACSHA256.authenticationCode(key: "Jefe", message: "what do ya want for nothing?"))
                == Hex.encode(mac))
    }

    /// The Stripe-scheme vector from `contracts/webhooks.md` (computed independently, checked with openssl).
    @Test func webhookSignatureVector() {
        let body = #"{"id":"evt_1","object":"event","type":"crypto.onramp_session.updated"}"#
        let mac = HMACSHA256.authenticationCode(key: "whsec_test_secret", message: "1700000000." + body)
        #expect(Hex.encode(mac) == "f081a3f0cef1b4b04600c88ea4723a34994c5c720406d7b954e9a1139e178a30")
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 3]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func secureRandom() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(32).count == 32)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}

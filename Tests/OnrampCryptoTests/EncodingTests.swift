import OnrampCrypto
import OnrampWire
import Testing

@Suite struct EncodingTests {
    @Test func base64RFC4648Vectors() {
        let cases = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in cases {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func base64IsStrict() {
        #expect(Base64.decode("Zg") == nil)
        #expect(Base64.decode("Zh==") == nil)
        #expect(Base64.decode("Zm9v\n") == nil)
        #expect(Base64.decode("Zm-_") == nil)
        #expect(Base64.decode("Z===") == nil)
        #expect(Base64.decode("Zm9=v") == nil)
    }

    @Test func base64URL() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xFE]
        #expect(Base64URL.encode(bytes) == "-__-")
        #expect(Base64URL.encode([0xFB], padded: true) == "-w==")
        #expect(Base64URL.encode([0xFB]) == "-w")
        #expect(Base64URL.decode("-w") == [0xFB])
        #expect(Base64URL.decode("-w==") == [0xFB])
        #expect(Base64URL.decodeUnpadded("-w==") == nil)
        #expect(Base64URL.decode("+w") == nil)
        #expect(Base64URL.decode("-x") == nil)
    }

    @Test func hex() {
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xAB, 0xFF])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}

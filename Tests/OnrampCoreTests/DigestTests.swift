import Foundation
import Testing

@testable import OnrampCore

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

@Suite struct DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesFIPSVectors(message: String, digest: String) {
        #expect(hex(PortableSHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func sha256HandlesMultipleBlocks() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(PortableSHA256.hash(million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [
        ("", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
        ("abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"),
        (
            "The quick brown fox jumps over the lazy dog",
            "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15"
        ),
    ])
    func keccak256MatchesKnownVectors(message: String, digest: String) {
        #expect(hex(Keccak256.hash(Array(message.utf8))) == digest)
    }

    @Test func keccak256HandlesInputsAcrossTheRate() {
        let input = [UInt8](repeating: 0x61, count: 136)
        let other = [UInt8](repeating: 0x61, count: 135)
        #expect(Keccak256.hash(input).count == 32)
        #expect(Keccak256.hash(input) != Keccak256.hash(other))
    }

    @Test func crc16XModemMatchesCheckValue() {
        #expect(StrKey.crc16XModem(Array("123456789".utf8)) == 0x31C3)
    }

    @Test func base58RoundTrips() {
        let bytes: [UInt8] = [0, 0, 1, 2, 3, 255]
        #expect(Base58.decode(Base58.encode(bytes)) == bytes)
        #expect(Base58.encode(Array("Hello World!".utf8)) == "2NEpo7TZRRrLZSi2U")
        #expect(Base58.decode("0OIl") == nil)
    }
}

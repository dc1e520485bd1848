import OnrampWire
import Testing

/// `UTF8Text` answers what the standard library's `String(validating:as:)` answers, for every kind of
/// byte sequence: ASCII (its fast path), valid multi-byte text, and each way UTF-8 can be invalid.
@Suite struct UTF8TextTests {
    static func standard(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    @Test func answersAsTheStandardLibraryOnKnownSequences() {
        let cases: [[UInt8]] = [
            [], Array("plain ascii, all of it".utf8), Array("é€😀 and ascii".utf8), [0x7F],
            [0x80],  // a lone continuation byte
            [0xC3, 0x28],  // a lead byte without its continuation
            [0xC0, 0xAF],  // an overlong encoding of "/"
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xE2, 0x82],  // cut short at the end
            [0x61, 0x62, 0xFF, 0x63],  // a byte UTF-8 never uses, after ASCII
        ]
        for bytes in cases {
            #expect(UTF8Text.string(bytes) == Self.standard(bytes), "\(bytes)")
            #expect(UTF8Text.string(bytes[...]) == Self.standard(bytes), "\(bytes)")
        }
        #expect(UTF8Text.string(Array("é€😀".utf8)) == "é€😀")
        #expect(UTF8Text.string([0xC3, 0x28]) == nil)
    }

    @Test func answersAsTheStandardLibraryOnRandomBytes() {
        var random = SystemRandomNumberGenerator()
        let valid = Array("aZ0 ~é€😀\u{7F}\u{80}".utf8)
        for round in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &random)
            // Half the rounds draw from the bytes of multi-byte text (leads and continuations in any order, so
            // valid and invalid sequences both), half from any byte at all.
            let bytes: [UInt8] = (0..<length).map { _ in
                round.isMultiple(of: 2)
                    ? valid.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            #expect(UTF8Text.string(bytes) == Self.standard(bytes), "\(bytes)")
            let offset = Int.random(in: 0...length, using: &random)
            #expect(
                UTF8Text.string(bytes[offset...]) == Self.standard(Array(bytes[offset...])), "\(bytes) from \(offset)")
        }
    }
}

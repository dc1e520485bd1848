import AppAttest
import Testing

@Suite struct CBORReaderTests {
    func failure(_ bytes: [UInt8], limits: CBORReader.Limits = .init()) -> CBORError.Code? {
        do {
            _ = try CBORReader.decode(bytes, limits: limits)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func decodesRFC8949Examples() throws {
        #expect(try CBORReader.decode([0x00]) == .unsigned(0))
        #expect(try CBORReader.decode([0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .unsigned(.max))
        #expect(try CBORReader.decode([0x38, 0x63]) == .integer(-100))
        #expect(try CBORReader.decode([0xF9, 0x3C, 0x00]) == .float(1.0))
        #expect(try CBORReader.decode([0xF9, 0xC4, 0x00]) == .float(-4.0))
        #expect(try CBORReader.decode([0x64, 0x49, 0x45, 0x54, 0x46]) == .text("IETF"))
        #expect(try CBORReader.decode([0x83, 0x01, 0x02, 0x03]) == .array([.unsigned(1), .unsigned(2), .unsigned(3)]))
        #expect(try CBORReader.decode([0xC1, 0x1A, 0x51, 0x4B, 0x67, 0xB0]) == .tagged(1, .unsigned(1_363_896_240)))
        #expect(try CBORReader.decode([0xF5]) == .bool(true))
        #expect(try CBORReader.decode([0xF6]) == .null)
        #expect(try CBORReader.decode([0xF7]) == .undefined)
    }

    @Test func writerRoundTrips() throws {
        let value = CBORValue.map([
            CBORMapEntry(.text("a"), .array([.integer(-1), .integer(1000), .bytes([1, 2, 3]), .null, .bool(false)])),
            CBORMapEntry(.integer(70_000), .tagged(24, .float(1.5))),
            CBORMapEntry(.integer(-5_000_000_000), .simple(200)),
        ])
        #expect(try CBORReader.decode(CBORWriter.encode(value)) == value)
    }

    @Test func rejectsIndefiniteLengths() {
        #expect(failure([0x5F, 0x41, 0x00, 0xFF]) == .indefiniteLength)
        #expect(failure([0x9F, 0xFF]) == .indefiniteLength)
        #expect(failure([0xBF, 0xFF]) == .indefiniteLength)
        #expect(failure([0xFF]) == .indefiniteLength)
    }

    @Test func rejectsTruncation() {
        #expect(failure([]) == .truncated)
        #expect(failure([0x19, 0x01]) == .truncated)
        #expect(failure([0x45, 0x01, 0x02]) == .truncated)
        #expect(failure([0x9B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .truncated)
        #expect(failure([0xA2, 0x01, 0x02]) == .truncated)
    }

    @Test func rejectsOtherMalformations() {
        #expect(failure([0x1C]) == .reserved)
        #expect(failure([0xF8, 0x10]) == .reserved)
        #expect(failure([0x62, 0xC3, 0x28]) == .invalidUTF8)
        #expect(failure([0xA2, 0x01, 0x02, 0x01, 0x03]) == .duplicateKey)
        #expect(failure([0x01, 0x02]) == .trailingBytes)
        #expect(failure([UInt8](repeating: 0x81, count: 40) + [0x00]) == .depthExceeded)
        #expect(failure([0x43, 1, 2, 3], limits: .init(maxSize: 3)) == .sizeExceeded)
    }
}

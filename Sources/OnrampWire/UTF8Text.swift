/// Bytes read as text, valid UTF-8 or nothing: what `String(validating:as:)` answers, faster for ASCII.
///
/// The standard library's validating initializer is generic over the encoding and is not specialized
/// for callers outside it: each call looked up type metadata at run time and walked the bytes through
/// the generic decoder, about 400 instructions for a short JSON key (`bench/instructions.sh` counted 6 %
/// of an Embedded create + checkout pair in it). ASCII, most of what the wire carries, is valid as it
/// is and goes to `String(decoding:as:)`, which the standard library specializes for UTF-8; anything else
/// is still validated by the standard library.
public enum UTF8Text {
    /// `bytes` as a string, or nil when they are not valid UTF-8.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for byte in bytes where byte >= 0x80 {
            return String(validating: bytes, as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes` as a string, or nil when they are not valid UTF-8.
    public static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }

    /// `bytes` as a string, or nil when they are not valid UTF-8.
    public static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }
}

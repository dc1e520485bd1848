/// A CBOR decoding failure with a stable ``code`` and the byte offset where it happened.
public struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable failure codes.
    public enum Code: String, Sendable {
        /// The input ends inside a data item.
        case truncated
        /// An indefinite-length item or a "break" byte (not accepted).
        case indefiniteLength = "indefinite_length"
        /// Reserved additional information (28...30) or an invalid simple value.
        case reserved
        /// Nesting deeper than the reader's limit.
        case depthExceeded = "depth_exceeded"
        /// Input larger than the reader's limit.
        case sizeExceeded = "size_exceeded"
        /// A text string is not valid UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// A map repeats a key.
        case duplicateKey = "duplicate_key"
        /// Bytes remain after the top-level item.
        case trailingBytes = "trailing_bytes"
    }

    /// The failure code.
    public let code: Code
    /// Offset of the offending byte in the input.
    public let offset: Int

    /// Creates an error.
    public init(code: Code, offset: Int) {
        self.code = code
        self.offset = offset
    }

    /// `CBORError(code at offset)`.
    public var description: String { "CBORError(\(code.rawValue) at \(offset))" }
}

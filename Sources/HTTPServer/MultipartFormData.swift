import OnrampWire

/// A `multipart/form-data` body (RFC 7578) split into its parts, as StripeCore's file upload sends it
/// (`purpose`, `owned_by`, then `file` with a filename and `Content-Type`).
public struct MultipartFormData: Sendable {
    /// One part.
    public struct Part: Sendable {
        /// The `name` of its `Content-Disposition`.
        public let name: String
        /// The `filename`, for a file.
        public let filename: String?
        /// Its `Content-Type`, if given.
        public let contentType: String?
        /// Its bytes.
        public let body: [UInt8]

        /// The body as UTF-8 text.
        public var text: String? { UTF8Text.string(body) }
    }

    /// The parts in order.
    public let parts: [Part]

    /// The first part named `name`.
    public func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// Splits `body` sent with `contentType` (`multipart/form-data; boundary=…`); at most `maximumParts` parts.
    public init(body: [UInt8], contentType: String?, maximumParts: Int = 16) throws(HTTPError) {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 70
        else { throw Self.malformed("Send multipart/form-data with a boundary.") }
        let delimiter = Array("--\(boundary)".utf8)
        var sections = Self.split(body, on: delimiter)
        guard sections.count >= 2 else { throw Self.malformed("The body has no parts.") }
        sections.removeFirst()  // the preamble
        var parts: [Part] = []
        for section in sections {
            if section.starts(with: Array("--".utf8)) { break }  // the close delimiter
            guard parts.count < maximumParts else { throw Self.malformed("At most \(maximumParts) parts.") }
            parts.append(try Self.part(section))
        }
        self.parts = parts
    }

    private static func part(_ section: ArraySlice<UInt8>) throws(HTTPError) -> Part {
        var bytes = section
        if bytes.starts(with: [13, 10]) { bytes = bytes.dropFirst(2) }
        if bytes.suffix(2).elementsEqual([13, 10]) { bytes = bytes.dropLast(2) }
        guard let headerEnd = firstIndex(of: [13, 10, 13, 10], in: bytes) else {
            throw malformed("A part has no header block.")
        }
        guard let head = UTF8Text.string(bytes[bytes.startIndex..<headerEnd]) else {
            throw malformed("A part's headers are not UTF-8.")
        }
        var name: String?
        var filename: String?
        var contentType: String?
        for line in head.split(separator: "\r\n") {
            let pieces = line.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let value = String(pieces[1].trimmingSpaces())
            switch pieces[0].lowercased() {
            case "content-disposition":
                name = parameter("name", in: value)
                filename = parameter("filename", in: value)
            case "content-type": contentType = value
            default: continue
            }
        }
        guard let name else { throw malformed("A part has no name.") }
        return Part(
            name: name, filename: filename, contentType: contentType, body: Array(bytes[(headerEnd + 4)...]))
    }

    /// `key=value` or `key="value"` among `;`-separated parameters.
    private static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == key else { continue }
            var value = String(pair[1].trimmingSpaces())
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    private static func split(_ body: [UInt8], on delimiter: [UInt8]) -> [ArraySlice<UInt8>] {
        var sections: [ArraySlice<UInt8>] = []
        var rest = body[...]
        while let index = firstIndex(of: delimiter, in: rest) {
            sections.append(rest[rest.startIndex..<index])
            rest = rest[(index + delimiter.count)...]
        }
        sections.append(rest)
        return sections
    }

    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func malformed(_ message: String) -> HTTPError {
        HTTPError(status: 400, code: "invalid_request", message: message, type: "invalid_request_error")
    }
}

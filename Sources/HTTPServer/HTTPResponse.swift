import OnrampWire

/// One HTTP response.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields (the server adds `Request-Id`).
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the head can go out as it is: header names are tokens, values hold no CR, LF or NUL
    /// (libmicrohttpd drops such a header without a word, and a 303 then leaves without its `Location`),
    /// and all header lines together fit in `maximumBytes`.
    public func headIsSendable(maximumBytes: Int) -> Bool {
        var total = 0
        for (name, value) in headers {
            guard !name.isEmpty, Self.all(of: name, satisfy: Self.isTokenByte),
                Self.all(of: value, satisfy: { $0 != 0 && $0 != 10 && $0 != 13 })
            else { return false }
            total += name.utf8.count + value.utf8.count + 4
        }
        return total <= maximumBytes
    }

    /// Whether every byte of `text` passes `test`, read from its contiguous storage when it has one.
    private static func all(of text: String, satisfy test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where !test(byte) { return false }
            return true
        } ?? text.utf8.allSatisfy(test)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A JSON response.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: value.serialized)
    }

    /// A wire object as JSON: the object renders itself (``WireObject/json``).
    public static func json(_ object: some WireObject, status: Int = 200) -> HTTPResponse {
        json(object.json, status: status)
    }

    /// An HTML page.
    public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: HTTPHeaders([
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "no-store"),
                (
                    "Content-Security-Policy",
                    "default-src 'none'; style-src 'unsafe-inline'; form-action *; img-src data:"
                ),
                ("X-Frame-Options", "DENY"),
                ("Referrer-Policy", "no-referrer"),
            ]),
            body: Array(text.utf8))
    }

    /// Plain text.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }

    /// A `303 See Other` to `location`.
    public static func seeOther(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }
}

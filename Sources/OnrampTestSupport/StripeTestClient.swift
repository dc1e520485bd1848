import Foundation

/// A small Stripe-style client for tests: form-encoded POSTs with `Authorization: Bearer <key>`,
/// JSON answers read with dotted paths (`transaction_details.last_error`). Each call goes through the
/// client's ``Exchange``: a new loopback connection (``init(port:key:)``), or whatever the test passes
/// (the server's router, in process).
public final class StripeTestClient: @unchecked Sendable {
    /// One answer.
    public struct Reply: CustomStringConvertible {
        /// The HTTP status.
        public let status: Int
        /// The header fields, names in lower case.
        public let headers: [String: String]
        /// The body as text.
        public let text: String
        /// The body parsed as JSON (`nil` when it is not JSON).
        public let json: Any?

        /// The value at a dotted path (`error.code`, `data.0.id`).
        public subscript(path: String) -> Any? {
            var current: Any? = json
            for part in path.split(separator: ".") {
                if let object = current as? [String: Any] {
                    current = object[String(part)]
                } else if let array = current as? [Any], let index = Int(part), array.indices.contains(index) {
                    current = array[index]
                } else {
                    return nil
                }
            }
            return current
        }

        /// The string at a dotted path, or `""`.
        public func string(_ path: String) -> String {
            self[path] as? String ?? ""
        }

        public var description: String { "\(status) \(text)" }
    }

    /// Sends one request (method, target, header fields, body) and returns the answer.
    public typealias Exchange =
        @Sendable (_ method: String, _ target: String, _ headers: [(String, String)], _ body: [UInt8]) throws ->
        RawHTTPClient.Response

    /// The API key sent as the Bearer token.
    public var key: String
    private let exchange: Exchange

    /// A client for `127.0.0.1:port`, one connection per call.
    public convenience init(port: Int, key: String) {
        self.init(key: key) { method, target, headers, body in
            try RawHTTPClient(port: port).request(method, target, headers: headers, body: body)
        }
    }

    /// A client whose calls go through `exchange`.
    public init(key: String, exchange: @escaping Exchange) {
        self.key = key
        self.exchange = exchange
    }

    /// `application/x-www-form-urlencoded` for `pairs` (keys may use brackets: `dob[day]`).
    public static func formEncode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    /// POSTs a form.
    public func post(_ path: String, _ form: [(String, String)] = [], headers: [(String, String)] = []) throws -> Reply
    {
        try send(
            "POST", path, body: Array(Self.formEncode(form).utf8),
            headers: headers + [("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// POSTs a JSON body.
    public func postJSON(_ path: String, _ body: [String: Any], headers: [(String, String)] = []) throws -> Reply {
        try send(
            "POST", path, body: Array(try JSONSerialization.data(withJSONObject: body)),
            headers: headers + [("Content-Type", "application/json")])
    }

    /// GETs `path` with `query` pairs.
    public func get(_ path: String, _ query: [(String, String)] = [], headers: [(String, String)] = []) throws -> Reply
    {
        try send("GET", query.isEmpty ? path : "\(path)?\(Self.formEncode(query))", body: [], headers: headers)
    }

    /// Sends one request with the Bearer key.
    public func send(_ method: String, _ target: String, body: [UInt8], headers: [(String, String)]) throws -> Reply {
        let response = try exchange(method, target, [("Authorization", "Bearer \(key)")] + headers, body)
        return Reply(
            status: response.status, headers: response.headers, text: response.text,
            json: try? JSONSerialization.jsonObject(with: Data(response.body)))
    }
}

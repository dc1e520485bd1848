import Foundation

/// A small Stripe-style client for tests: form-encoded POSTs with `Authorization: Bearer <key>`,
/// JSON answers read with dotted paths (`transaction_details.last_error`). One connection per call.
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

    /// The server's port.
    public let port: Int
    /// The API key sent as the Bearer token.
    public var key: String

    /// Creates a client for `127.0.0.1:port`.
    public init(port: Int, key: String) {
        self.port = port
        self.key = key
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
        let client = try RawHTTPClient(port: port)
        let response = try client.request(
            method, target, headers: [("Authorization", "Bearer \(key)")] + headers, body: body)
        return Reply(
            status: response.status, headers: response.headers, text: response.text,
            json: try? JSONSerialization.jsonObject(with: Data(response.body)))
    }
}

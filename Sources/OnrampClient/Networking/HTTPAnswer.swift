import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A received answer: status, headers and body, with JSON helpers.
public struct HTTPAnswer: Sendable {
    /// The status code.
    public let status: Int
    /// The body bytes.
    public let body: Data
    /// Header fields, names lower-cased.
    public let headers: [String: String]

    /// Wraps a response.
    public init(data: Data, response: HTTPURLResponse) {
        status = response.statusCode
        body = data
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        headers = fields
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Decodes the body as `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: body)
    }

    /// The body as UTF-8 text, for messages.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

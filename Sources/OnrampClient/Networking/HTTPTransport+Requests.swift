import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// Sends `method url` with an optional body and headers and wraps the answer.
    public func request(
        _ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await send(request)
        return HTTPAnswer(data: data, response: response)
    }

    /// Sends a JSON body (an `Encodable`) and wraps the answer.
    public func json<Body: Encodable>(
        _ method: String, _ url: URL, _ body: Body, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        try await request(
            method, url, body: try JSONEncoder().encode(body), contentType: "application/json", headers: headers)
    }

    /// Sends `application/x-www-form-urlencoded` fields (bracket nesting already in the names).
    public func form(
        _ method: String, _ url: URL, _ fields: [(String, String)], headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        try await request(
            method, url, body: Data(FormEncoding.encode(fields).utf8),
            contentType: "application/x-www-form-urlencoded", headers: headers)
    }
}

/// The checks on a request head that libmicrohttpd 0.9.75 leaves to the application, made before any
/// body is read: framing that two parties could read differently is refused (request smuggling), and
/// so is a body whose length is declared over the limit.
enum RequestHeadCheck {
    /// The error to answer with instead of routing, or `nil` when the head is acceptable.
    static func refusal(version: String, headers: HTTPHeaders, maximumBodyBytes: Int) -> HTTPError? {
        // One pass over the fields: this runs on every request.
        var firstHost: String?
        var hostCount = 0
        var transferEncodings: [String] = []
        var declaredLengths: [String] = []
        for (name, value) in headers {
            if HTTPHeaders.equalIgnoringASCIICase(name, "Host") {
                if hostCount == 0 { firstHost = value }
                hostCount += 1
            } else if HTTPHeaders.equalIgnoringASCIICase(name, "Content-Length") {
                declaredLengths.append(value)
            } else if HTTPHeaders.equalIgnoringASCIICase(name, "Transfer-Encoding") {
                transferEncodings.append(value)
            }
        }
        if version == "HTTP/1.1", !(firstHost?.utf8.contains(where: { $0 != 32 && $0 != 9 }) ?? false) {
            return HTTPError(
                status: 400, code: "missing_host", message: "An HTTP/1.1 request must carry one Host header.")
        }
        if hostCount > 1 {
            return HTTPError(status: 400, code: "invalid_host", message: "The request carries several Host headers.")
        }
        let lengths = declaredLengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces() }
        if !transferEncodings.isEmpty {
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingSpaces().lowercased()
            }
            guard codings == ["chunked"] else {
                return HTTPError(
                    status: 501, code: "unsupported_transfer_encoding",
                    message: "Only Transfer-Encoding: chunked is supported.")
            }
            if !lengths.isEmpty {
                return HTTPError(
                    status: 400, code: "invalid_content_length",
                    message: "A request may not carry both Transfer-Encoding and Content-Length.")
            }
            return nil
        }
        guard let first = lengths.first else { return nil }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(first)
        else {
            return HTTPError(
                status: 400, code: "invalid_content_length",
                message: "Content-Length must be one decimal number (several differing values were sent, or none).")
        }
        return length > maximumBodyBytes ? .payloadTooLarge(limit: maximumBodyBytes) : nil
    }
}

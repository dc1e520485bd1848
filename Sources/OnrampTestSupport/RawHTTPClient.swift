import Foundation
import OnrampPlatform

/// A minimal HTTP/1.1 client over a POSIX socket, for tests that need what URLSession hides: the
/// exact status of a refused upload, several requests on one keep-alive connection, raw headers.
public final class RawHTTPClient {
    private let socketDescriptor: Int32
    private let port: Int
    private var pending: [UInt8] = []

    /// A parsed response.
    public struct Response: Sendable {
        /// The status code.
        public let status: Int
        /// Header fields with lower-cased names.
        public let headers: [String: String]
        /// The body.
        public let body: [UInt8]
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// A response with `headers` named in lower case.
        public init(status: Int, headers: [String: String], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Why a request failed at the socket level.
    public struct ClientError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// Connects to `127.0.0.1:port`, from `sourceAddress` when given (any of 127.0.0.0/8, so a test
    /// can play several client addresses).
    public init(port: Int, timeoutSeconds: Int = 10, from sourceAddress: String? = nil) throws {
        // The descriptor is stored only once connected: a class whose init throws after setting every
        // property runs its deinit, which would close the descriptor a second time (by then perhaps
        // another thread's socket).
        let socketDescriptor = socket(AF_INET, PlatformSockets.stream, 0)
        guard socketDescriptor >= 0 else { throw ClientError(description: "socket failed") }
        PlatformSockets.suppressSIGPIPE(socketDescriptor)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            source.sin_addr.s_addr = inet_addr(sourceAddress)
            guard PlatformSockets.bind(socketDescriptor, to: source) == 0 else {
                close(socketDescriptor)
                throw ClientError(description: "bind to \(sourceAddress) failed")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socketDescriptor)
            throw ClientError(description: "connect to port \(port) failed")
        }
        self.port = port
        self.socketDescriptor = socketDescriptor
    }

    deinit { close(socketDescriptor) }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { PlatformSockets.send(socketDescriptor, $0) }
            guard written > 0 else { throw ClientError(description: "send failed") }
            offset += written
        }
    }

    /// Sends one request (`Host: 127.0.0.1:PORT`, as browsers and HTTP libraries send it) and reads its
    /// response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse(method: method)
    }

    /// Reads one response (Content-Length or until the connection closes).
    public func readResponse(method: String = "GET") throws -> Response {
        while findHeaderEnd() == nil {
            guard try receive() else { throw ClientError(description: "connection closed before a response") }
        }
        let end = findHeaderEnd()!
        let headText = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body: [UInt8] = []
        if method == "HEAD" {
            body = []
        } else if let length = headers["content-length"].flatMap(Int.init) {
            while pending.count < length {
                guard try receive() else { throw ClientError(description: "connection closed mid-body") }
            }
            body = Array(pending[..<length])
            pending.removeFirst(length)
        } else {
            while try receive() {}
            body = pending
            pending = []
        }
        return Response(status: status, headers: headers, body: body)
    }

    private func findHeaderEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for i in 0...(pending.count - 4)
        where pending[i] == 13 && pending[i + 1] == 10 && pending[i + 2] == 13 && pending[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Waits up to the receive timeout for the server to close the connection, discarding anything
    /// it sends; true when it closed (or reset) it.
    public func waitForClose() -> Bool {
        while true {
            do {
                guard try receive() else { return true }
            } catch {
                return errno == ECONNRESET
            }
        }
    }

    private func receive() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw ClientError(description: "receive failed or timed out") }
        if count == 0 { return false }
        pending.append(contentsOf: buffer[..<count])
        return true
    }
}

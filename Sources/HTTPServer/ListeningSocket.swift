import OnrampPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket bound and listening before the server starts, so the caller knows the port (also
/// when it asked for port 0) before it builds the routes that need it, with no window in which another
/// process could take the port.
public struct ListeningSocket: Sendable {
    /// The bound port.
    public let port: Int
    let descriptor: Int32

    /// Binds `host:port` (IPv4; port 0 picks a free one) and listens.
    public static func bind(host: String, port: Int, backlog: Int32 = 1024) throws(HTTPServer.StartError)
        -> ListeningSocket
    {
        let descriptor = socket(AF_INET, PlatformSockets.stream, 0)
        guard descriptor >= 0 else { throw HTTPServer.StartError(message: "cannot create a socket") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(descriptor)
            throw HTTPServer.StartError(message: "invalid IPv4 listen address \(host)")
        }
        guard PlatformSockets.bind(descriptor, to: address) == 0, listen(descriptor, backlog) == 0 else {
            close(descriptor)
            throw HTTPServer.StartError(message: "could not listen on \(host):\(port)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return ListeningSocket(port: Int(UInt16(bigEndian: address.sin_port)), descriptor: descriptor)
    }
}

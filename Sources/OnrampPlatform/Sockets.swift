#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls whose spelling differs between glibc and Darwin: the socket type constant (an
/// imported enum on glibc, an `Int32` on Darwin), close-on-exec at creation (`SOCK_CLOEXEC` exists on
/// Linux only) and sending without `SIGPIPE` (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on Darwin).
public enum PlatformSockets {
    /// `SOCK_STREAM` as `socket(2)` takes it.
    public static var stream: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// A new socket that is not inherited by child processes; negative on failure.
    public static func openCloseOnExec(family: Int32, type: Int32, protocol: Int32) -> Int32 {
        #if canImport(Glibc)
            return socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        #else
            let descriptor = socket(family, type, `protocol`)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return descriptor
        #endif
    }

    /// Binds `descriptor` to the IPv4 `address`; 0 on success, as `bind(2)`.
    public static func bind(_ descriptor: Int32, to address: sockaddr_in) -> Int32 {
        var address = address
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
    }

    /// Makes writes to `descriptor` fail with `EPIPE` instead of raising `SIGPIPE` once the peer has
    /// gone (on Linux ``send(_:_:)`` passes `MSG_NOSIGNAL` instead, so this does nothing there).
    public static func suppressSIGPIPE(_ descriptor: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `send(2)` of `bytes` without `SIGPIPE` (see ``suppressSIGPIPE(_:)`` for Darwin); the count sent.
    public static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
            Darwin.send(descriptor, bytes.baseAddress, bytes.count, 0)
        #endif
    }
}

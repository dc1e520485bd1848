/// Listening address, thread pool and limits of an ``HTTPServer``.
public struct ServerConfiguration: Sendable {
    /// The IPv4 address to bind (`127.0.0.1` by default; `0.0.0.0` for every interface).
    public var host: String
    /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``).
    public var port: Int
    /// Worker threads that poll connections and run handlers.
    public var threadCount: Int
    /// The largest request body accepted; larger ones get 413.
    public var maximumBodyBytes: Int
    /// The longest request path accepted; longer ones get 414.
    public var maximumURLBytes: Int
    /// The largest request head (request line and headers); larger ones get 431 in the path's error shape.
    /// Each connection's buffer is four times this, and heads too big even for it are refused by the
    /// library itself (431 with its own small HTML body).
    public var maximumHeaderBytes: Int
    /// Idle seconds after which a connection is closed.
    public var connectionTimeoutSeconds: Int
    /// The most simultaneous connections.
    public var connectionLimit: Int

    /// Creates a configuration; the thread count defaults to the number of cores (at least 2).
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threadCount: Int? = nil, maximumBodyBytes: Int = 1 << 20,
        maximumURLBytes: Int = 8192, maximumHeaderBytes: Int = 16 << 10, connectionTimeoutSeconds: Int = 30,
        connectionLimit: Int = 1024
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount ?? Swift.max(2, ProcessInfoCores.count)
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumURLBytes = maximumURLBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
    }
}

#if canImport(Glibc)
    import Glibc
#endif

enum ProcessInfoCores {
    static var count: Int {
        #if canImport(Glibc)
            return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
            return 2
        #endif
    }
}

import OnrampPlatform

/// Listening address, worker threads and limits of an ``HTTPServer``.
public struct ServerConfiguration: Sendable {
    /// The IPv4 address to bind (`127.0.0.1` by default; `0.0.0.0` for every interface).
    public var host: String
    /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``).
    public var port: Int
    /// Worker threads that poll connections and run handlers; new connections are dealt to them in turn.
    public var threadCount: Int
    /// The largest request body accepted; larger ones get 413.
    public var maximumBodyBytes: Int
    /// The longest request target (path and query) accepted; longer ones get 414.
    public var maximumURLBytes: Int
    /// The most query parameters accepted; more get 414.
    public var maximumQueryParameters: Int
    /// The largest request head (request line and headers); larger ones get 431 in the path's error shape.
    /// Each connection's buffer is this and 4 KiB, and heads too big even for it are refused by the
    /// library itself (431 with its own small HTML body).
    public var maximumHeaderBytes: Int
    /// Seconds without any traffic after which a connection is closed (the library's own timeout;
    /// the deadlines in ``connections`` are the tighter ones).
    public var connectionTimeoutSeconds: Int
    /// Connection caps and deadlines; `nil` sizes them from the file-descriptor limit (see
    /// ``ConnectionLimits/fromDescriptorLimit()``).
    public var connections: ConnectionLimits?
    /// A path answered before routing as a liveness probe (see ``LivenessProbe``): its route's answer, made
    /// once at start, outside the request log and the access log; `nil` routes every request.
    public var livenessPath: String?

    /// Creates a configuration; the thread count defaults to the number of cores (at least 2).
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threadCount: Int? = nil, maximumBodyBytes: Int = 1 << 20,
        maximumURLBytes: Int = 8192, maximumQueryParameters: Int = 1000, maximumHeaderBytes: Int = 16 << 10,
        connectionTimeoutSeconds: Int = 30, connections: ConnectionLimits? = nil, livenessPath: String? = nil
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount ?? Swift.max(2, ProcessLimits.onlineCores)
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumURLBytes = maximumURLBytes
        self.maximumQueryParameters = maximumQueryParameters
        self.maximumHeaderBytes = maximumHeaderBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connections = connections
        self.livenessPath = livenessPath
    }
}

extension ConnectionLimits {
    /// Descriptors kept for everything but client connections (database, files, outgoing webhooks).
    public static let descriptorsKept = 256

    /// The most connections by default whatever the descriptor limit: a connection that has served a
    /// request keeps its 20 KiB pool resident, so 8,192 of them hold about 200 MB.
    public static let defaultMaximumTotal = 8192

    /// The default limits, with the total sized from the process's file-descriptor limit (the soft
    /// limit is first raised to the hard one): every descriptor but ``descriptorsKept`` may be a client,
    /// up to ``defaultMaximumTotal``.
    public static func fromDescriptorLimit() -> ConnectionLimits {
        ConnectionLimits(
            total: Swift.min(
                defaultMaximumTotal, Swift.max(64, ProcessLimits.raiseDescriptorLimit() - descriptorsKept)))
    }
}

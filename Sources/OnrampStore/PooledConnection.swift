/// A driver connection that a ``ConnectionPool`` can lend out and take back.
protocol PooledConnection: AnyObject, Sendable {
    /// Whether the connection can be lent again; a connection that is not is closed and replaced.
    var isReusable: Bool { get }
    /// Releases the native handle.
    func close()
}

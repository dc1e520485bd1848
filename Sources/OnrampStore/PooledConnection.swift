/// A driver connection that a ``ConnectionPool`` can lend out and take back.
protocol PooledConnection: AnyObject, Sendable {
    /// Rolls back a transaction its borrower left open and returns whether the connection can be
    /// lent again; a connection that cannot is closed and replaced.
    func prepareForReuse() -> Bool
    /// Releases the native handle.
    func close()
}

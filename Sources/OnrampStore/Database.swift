/// A database opened by ``DatabaseURL/open(_:)``: SQLite or PostgreSQL behind one API.
///
/// Implementations are safe to share between threads. Their methods block the calling thread, so
/// call them from a server's worker threads rather than from Swift concurrency's cooperative pool.
public protocol Database: Sendable {
    /// The dialect of the underlying database.
    var dialect: SQLDialect { get }
    /// Runs `body` with a connection for reading; reads may run concurrently with each other and with
    /// a transaction. On SQLite the body's statements share one snapshot; on PostgreSQL each statement
    /// sees the data committed when it starts.
    @discardableResult
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `statements` in order as one read (one snapshot) and returns their outcomes. On PostgreSQL
    /// the transaction's `BEGIN`, the statements and its `COMMIT` travel in one pipeline: one round
    /// trip, and the server wakes once.
    func read(_ statements: [SQLStatement]) throws -> [SQLOutcome]
    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` on SQLite) and commits it; rolls back if `body`
    /// throws. Not retried automatically: wrap the call in ``withRetry(maxAttempts:_:)`` when that is
    /// safe. Do not start a transaction from inside another one on the same database (SQLite refuses it).
    @discardableResult
    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Applies the migrations not yet recorded in `schema_migrations`, each in its own transaction.
    func migrate(_ migrations: [Migration]) throws
    /// Checks that the database answers a trivial query (for `/healthz`).
    func ping() throws
    /// Closes idle connections and refuses new work; connections in use close when they are returned.
    func close()
}

extension Database {
    /// The statements run in turn in one read transaction.
    public func read(_ statements: [SQLStatement]) throws -> [SQLOutcome] {
        try read { try $0.run(statements) }
    }
}

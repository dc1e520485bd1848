/// A ``Database`` on a PostgreSQL server, reached through libpq with a bounded connection pool.
///
/// Connections open lazily up to ``Configuration/poolSize``; a caller waits at most
/// ``Configuration/acquireTimeout`` for a free one. A connection that broke, or that was left inside
/// a transaction, is closed on return and a new one is opened on demand.
public final class PostgresDatabase: Database {
    /// Settings of a ``PostgresDatabase``.
    public struct Configuration: Sendable {
        /// The most connections open at once.
        public var poolSize: Int
        /// How long a caller waits for a free connection before failing with `busy`.
        public var acquireTimeout: Duration
        /// How long opening a connection may take, unless the conninfo sets `connect_timeout`.
        public var connectTimeoutSeconds: Int

        /// Creates a configuration.
        public init(poolSize: Int = 10, acquireTimeout: Duration = .seconds(10), connectTimeoutSeconds: Int = 10) {
            self.poolSize = poolSize
            self.acquireTimeout = acquireTimeout
            self.connectTimeoutSeconds = connectTimeoutSeconds
        }
    }

    private let pool: ConnectionPool<PostgresConnection>
    private let conninfo: String
    private let connectTimeoutSeconds: Int

    /// Connects with a libpq URI (`postgres://…`) or `key=value` conninfo string. One connection is
    /// opened at once, so an unreachable server fails here with `connectionFailed`.
    public init(conninfo: String, configuration: Configuration = Configuration()) throws {
        self.conninfo = conninfo
        let timeout = configuration.connectTimeoutSeconds
        connectTimeoutSeconds = timeout
        let first = try PostgresConnection(conninfo: conninfo, connectTimeoutSeconds: timeout)
        pool = ConnectionPool(
            maximumCount: max(1, configuration.poolSize), acquireTimeout: configuration.acquireTimeout,
            opened: first
        ) {
            try PostgresConnection(conninfo: conninfo, connectTimeoutSeconds: timeout)
        }
    }

    /// A listener on `channel` on a connection of its own (``PostgresChangeWatcher``).
    func makeChangeWatcher(channel: String) throws -> PostgresChangeWatcher {
        try PostgresChangeWatcher(
            connection: PostgresConnection(conninfo: conninfo, connectTimeoutSeconds: connectTimeoutSeconds),
            channel: channel)
    }

    /// Always ``SQLDialect/postgres``.
    public var dialect: SQLDialect { .postgres }

    /// Runs `body` in a read-only `REPEATABLE READ` transaction on a pooled connection: every statement
    /// in it sees one snapshot, as on SQLite (in autocommit mode each statement saw the latest commits, so
    /// a read of a challenge and then of its key could straddle another request's write). A read that
    /// met a statement outdated by a schema change runs once more (reads have no side effects).
    @discardableResult
    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        do {
            return try snapshot(body)
        } catch let error as StoreError where error.code == .statementOutdated {
            return try snapshot(body)
        }
    }

    private func snapshot<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.withConnection { try $0.withDeferredBegin(Self.snapshotBegin, committingWithoutWaiting: true, body) }
    }

    /// Runs `statements` as one read-only `REPEATABLE READ` transaction in a single pipeline (its
    /// `BEGIN`, the statements, its `COMMIT`); run once more when one met a statement outdated by a
    /// schema change.
    public func read(_ statements: [SQLStatement]) throws -> [SQLOutcome] {
        do {
            return try pool.withConnection { try $0.runAlone(statements, begin: Self.snapshotBegin) }
        } catch let error as StoreError where error.code == .statementOutdated {
            return try pool.withConnection { try $0.runAlone(statements, begin: Self.snapshotBegin) }
        }
    }

    private static let snapshotBegin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    /// Runs `body` inside `BEGIN` … `COMMIT` (read committed) on a pooled connection.
    @discardableResult
    public func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.withConnection { try $0.withDeferredBegin("BEGIN", body) }
    }

    /// Applies the pending migrations (see ``Database/migrate(_:)``), serialized between clients by an
    /// advisory lock.
    public func migrate(_ migrations: [Migration]) throws {
        try Migrator.migrate(migrations, on: self)
    }

    /// Runs one statement outside any transaction on a pooled connection, for the statements PostgreSQL
    /// refuses inside one (`CREATE DATABASE`, `DROP DATABASE`, `VACUUM`).
    public func executeOutsideTransaction(_ sql: String) throws {
        _ = try pool.withConnection { try $0.execute(sql) }
    }

    /// Runs `SELECT 1` on a pooled connection.
    public func ping() throws {
        // One round trip: a snapshot transaction around it would add two.
        _ = try pool.withConnection { try $0.query("SELECT 1") }
    }

    /// Closes all idle connections.
    public func close() {
        pool.close()
    }
}

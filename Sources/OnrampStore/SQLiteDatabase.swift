import Synchronization

/// A ``Database`` stored in one SQLite file, in WAL mode.
///
/// Concurrency model: one writer connection, lent through a pool of one, so the server's threads
/// queue for writing in this process instead of spinning in SQLite's busy handler, and their queued
/// transactions share one commit (group commit); and a
/// pool of reader connections (`PRAGMA query_only`) that, thanks to WAL, read concurrently with each
/// other and with the writer. Transactions start with `BEGIN IMMEDIATE`, so a transaction that reads
/// before it writes never fails to upgrade its lock. `busy_timeout` still covers other processes
/// using the same file. An in-memory database has a single connection for everything.
public final class SQLiteDatabase: Database {
    /// Settings of a ``SQLiteDatabase``.
    public struct Configuration: Sendable {
        /// How many reader connections may be open at once.
        public var readerCount: Int
        /// How long SQLite waits on a lock held by another process (`busy_timeout`), and how long a
        /// caller waits for a free connection in this process, before failing with `busy`.
        public var busyTimeout: Duration
        /// `PRAGMA synchronous`: how hard a commit waits for the disk.
        public var synchronous: Synchronous

        /// Creates a configuration; the defaults suit a server on a small machine.
        public init(readerCount: Int = 4, busyTimeout: Duration = .seconds(5), synchronous: Synchronous = .full) {
            self.readerCount = readerCount
            self.busyTimeout = busyTimeout
            self.synchronous = synchronous
        }
    }

    /// SQLite's `PRAGMA synchronous` levels that are safe in WAL mode.
    public enum Synchronous: String, Sendable {
        /// Every commit is durable against power loss (the default).
        case full = "FULL"
        /// Faster; commits are durable against a crash of the process, not of the machine.
        case normal = "NORMAL"
    }

    /// The path of the database file, or `:memory:`.
    public let path: String
    private let writer: ConnectionPool<SQLiteConnection>
    private let readers: ConnectionPool<SQLiteConnection>
    private let groupCommit: GroupCommit
    /// The statements that scanned a table or sorted, as SQLite counted them (see ``StatementScanLog``).
    public let scanLog = StatementScanLog()
    private let readCount = Atomic<Int>(0)

    /// Opens (creating if needed) the database at `path`, or an in-memory database for `:memory:`.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        let components = configuration.busyTimeout.components
        let milliseconds = Int32(
            clamping: components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000)
        let scanLog = scanLog
        let first = try SQLiteConnection(
            path: path, busyTimeoutMilliseconds: milliseconds, readOnly: false, scanLog: scanLog)
        do {
            if path != ":memory:" {
                let mode = try first.query("PRAGMA journal_mode = WAL").first?["journal_mode"]
                guard mode == .text("wal") else {
                    throw StoreError(.connectionFailed, "SQLite refused WAL mode for \(path)")
                }
            }
            try first.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        } catch {
            first.close()
            throw error
        }
        writer = ConnectionPool(
            maximumCount: 1, acquireTimeout: configuration.busyTimeout, opened: first
        ) {
            try SQLiteConnection(path: path, busyTimeoutMilliseconds: milliseconds, readOnly: false, scanLog: scanLog)
        }
        groupCommit = GroupCommit(
            writer: writer,
            queueTimeout: Double(components.seconds) + Double(components.attoseconds) / 1e18)
        if path == ":memory:" {
            readers = writer
        } else {
            readers = ConnectionPool(
                maximumCount: max(1, configuration.readerCount), acquireTimeout: configuration.busyTimeout
            ) {
                try SQLiteConnection(
                    path: path, busyTimeoutMilliseconds: milliseconds, readOnly: true, scanLog: scanLog)
            }
        }
    }

    /// Always ``SQLDialect/sqlite``.
    public var dialect: SQLDialect { .sqlite }

    /// Runs `body` on a reader connection, inside one read transaction: its statements share a
    /// snapshot, and the reader catches up with the latest commit once rather than per statement.
    /// Writes through it fail.
    @discardableResult
    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        readCount.wrappingAdd(1, ordering: .relaxed)
        guard path != ":memory:" else { return try readers.withConnection { try body($0) } }
        return try readers.withConnection { try $0.withTransaction(begin: "BEGIN", body) }
    }

    /// Runs `body` in a transaction on the writer connection. Transactions that queue up while one
    /// commits are committed together (``GroupCommit``): each keeps its own savepoint, so it still
    /// commits or rolls back alone.
    @discardableResult
    public func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try groupCommit.transaction(body)
    }

    /// How many transactions ran and how many grouped commits they took.
    public var groupCommitStatistics: GroupCommitStatistics { groupCommit.currentStatistics }

    /// How many read transactions ran (``read(_:)`` calls).
    public var readTransactions: Int { readCount.load(ordering: .relaxed) }

    /// Applies the pending migrations (see ``Database/migrate(_:)``).
    public func migrate(_ migrations: [Migration]) throws {
        try Migrator.migrate(migrations, on: self)
    }

    /// Runs `SELECT 1` on a reader connection, as one statement (no explicit transaction around it:
    /// there is no snapshot to keep).
    public func ping() throws {
        try readers.withConnection { try $0.ping() }
    }

    /// Closes all idle connections.
    public func close() {
        writer.close()
        readers.close()
    }
}

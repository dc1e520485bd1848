import OnrampPlatform
import Synchronization

/// Tells a waiting loop that something was committed, so it can sleep long and still react at once:
/// its ``descriptor`` polls readable after a commit, and ``drain()`` consumes that.
public protocol ChangeWatcher: Sendable {
    /// A file descriptor that becomes readable (`poll(2)`, `POLLIN`) after a commit; negative while
    /// the watcher is down (`poll` then ignores it).
    var descriptor: Int32 { get }
    /// Consumes what made ``descriptor`` readable, so the next poll waits for the next commit.
    func drain()
}

/// The PostgreSQL channel a commit that adds outbox events notifies (the server's schema installs the
/// trigger that sends it).
public let outboxChannel = "onramp_outbox"

extension Database {
    /// A watcher of this database's commits: on PostgreSQL a `LISTEN` on ``outboxChannel``, on
    /// SQLite files a watch of the log (``FileWriteWatch``); `nil` when there is none (an in-memory
    /// database, a listener that cannot connect), and the caller polls on its interval.
    public func changeWatcher() -> (any ChangeWatcher)? {
        if let postgres = self as? PostgresDatabase {
            return try? postgres.makeChangeWatcher(channel: outboxChannel)
        }
        guard let sqlite = self as? SQLiteDatabase, sqlite.path != ":memory:" else { return nil }
        return SQLiteChangeWatcher(walPath: sqlite.path + "-wal")
    }
}

extension Database {
    /// A watcher of the notifications sent on `channel` (a `LISTEN` of its own, on PostgreSQL); `nil` on
    /// SQLite, which has no notifications, and when the listener cannot connect.
    public func notificationWatcher(channel: String) -> (any ChangeWatcher)? {
        try? (self as? PostgresDatabase)?.makeChangeWatcher(channel: channel)
    }
}

/// `LISTEN` on a connection of the watcher's own: PostgreSQL delivers a notification when the
/// transaction that sent it commits, never before, to every listener (each server instance). A
/// connection that broke is reset and listens again on the next drain.
final class PostgresChangeWatcher: ChangeWatcher {
    private let connection: Mutex<PostgresConnection>
    private let channel: String

    init(connection: PostgresConnection, channel: String) throws {
        try Self.listen(connection, channel)
        self.connection = Mutex(connection)
        self.channel = channel
    }

    deinit { connection.withLock { $0.close() } }

    var descriptor: Int32 { connection.withLock { $0.socket } }

    func drain() {
        let channel = channel
        _ = connection.withLock { $0.consumeNotifications { try Self.listen($0, channel) } }
    }

    private static func listen(_ connection: PostgresConnection, _ channel: String) throws {
        try connection.execute("LISTEN \(channel)", [])
    }
}

/// The database's write-ahead log, watched: every commit appends to it, whichever connection makes it
/// (this process's pools, another process such as `onramp trigger`, a second instance on the same file).
final class SQLiteChangeWatcher: ChangeWatcher {
    private let watch: FileWriteWatch

    /// A watcher of the log at `walPath`; `nil` when the platform refuses a watch or the log does not exist
    /// (SQLite creates it on the first write and keeps it while a connection is open).
    init?(walPath: String) {
        guard let watch = FileWriteWatch(path: walPath) else { return nil }
        self.watch = watch
    }

    var descriptor: Int32 { watch.descriptor }

    func drain() { watch.drain() }
}

import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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
    /// SQLite files (Linux) inotify on the log; `nil` when there is none (an in-memory database, another
    /// platform, a listener that cannot connect), and the caller polls on its interval.
    public func changeWatcher() -> (any ChangeWatcher)? {
        if let postgres = self as? PostgresDatabase {
            return try? postgres.makeChangeWatcher(channel: outboxChannel)
        }
        #if canImport(Glibc)
            guard let sqlite = self as? SQLiteDatabase, sqlite.path != ":memory:" else { return nil }
            return SQLiteChangeWatcher(walPath: sqlite.path + "-wal")
        #else
            return nil
        #endif
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

#if canImport(Glibc)
    /// inotify on the database's write-ahead log: every commit appends to it, whichever connection makes
    /// it (this process's pools, another process such as `onramp trigger`, a second instance on the same
    /// file), and the kernel reports the write. Waiting costs nothing; a wake costs one `read(2)`.
    final class SQLiteChangeWatcher: ChangeWatcher {
        let descriptor: Int32
        private let walPath: String

        /// A watcher of the log at `walPath`; `nil` when inotify is unavailable or the log does not exist
        /// (SQLite creates it on the first write and keeps it while a connection is open).
        init?(walPath: String) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            guard inotify_add_watch(descriptor, walPath, UInt32(IN_MODIFY)) >= 0 else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            self.walPath = walPath
        }

        deinit { close(descriptor) }

        /// Reads every queued event; when the log was removed (the kernel dropped the watch, `IN_IGNORED`),
        /// watches the file again should it exist by now.
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var watchDropped = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.withUnsafeBytes {
                        $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    }
                    if event.mask & UInt32(IN_IGNORED) != 0 { watchDropped = true }
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
            if watchDropped { _ = inotify_add_watch(descriptor, walPath, UInt32(IN_MODIFY)) }
        }
    }
#endif

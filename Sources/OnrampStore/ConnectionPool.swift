import Foundation

/// A bounded pool of driver connections, opened lazily and lent to one caller at a time.
///
/// `@unchecked Sendable` is sound because every mutable property is read and written only while
/// `condition` is locked, and a connection leaves the pool for exactly one borrower at a time.
final class ConnectionPool<Connection: PooledConnection>: @unchecked Sendable {
    private let condition = NSCondition()
    private let maximumCount: Int
    private let acquireTimeout: Duration
    private let open: @Sendable () throws -> Connection
    private var idle: [Connection] = []
    private var count = 0
    private var isClosed = false

    /// Creates a pool of at most `maximumCount` connections made by `open`; a borrower waits at most
    /// `acquireTimeout` for one to become free. `opened` is an already open connection to start with.
    init(
        maximumCount: Int, acquireTimeout: Duration, opened: Connection? = nil,
        open: @escaping @Sendable () throws -> Connection
    ) {
        precondition(maximumCount > 0, "a connection pool needs room for one connection")
        self.maximumCount = maximumCount
        if let opened {
            idle = [opened]
            count = 1
        }
        self.acquireTimeout = acquireTimeout
        self.open = open
    }

    /// Lends a connection to `body`, then takes it back (or closes it if it is no longer reusable).
    /// A thread that already holds one of this pool's connections is refused a second: waiting for it
    /// while holding the first can starve the pool (every borrower holding one, waiting for another).
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let held = HeldPools.ofCurrentThread()
        let pool = ObjectIdentifier(self)
        guard !held.contains(pool) else {
            throw StoreError(
                .queryFailed,
                "a second pooled connection was asked for while this thread holds one (a read inside a transaction must use the transaction's connection)"
            )
        }
        let connection = try acquire()
        held.insert(pool)
        defer {
            held.remove(pool)
            release(connection)
        }
        return try body(connection)
    }

    /// Closes the idle connections and refuses further borrowing.
    func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        count -= idle.count
        idle = []
        condition.broadcast()
        condition.unlock()
        for connection in closing { connection.close() }
    }

    private func acquire() throws -> Connection {
        condition.lock()
        // The deadline is read from the clock only when there is a wait: most borrowers find an idle
        // connection (the clock read and the date arithmetic were 0.9 % of a `/healthz` probe).
        var waitingUntil: Date?
        while !isClosed && idle.isEmpty && count >= maximumCount {
            let deadline = waitingUntil ?? Self.deadline(after: acquireTimeout)
            waitingUntil = deadline
            if !condition.wait(until: deadline) && idle.isEmpty && count >= maximumCount {
                condition.unlock()
                throw StoreError(
                    .busy, "no database connection became free within \(acquireTimeout) (pool of \(maximumCount))")
            }
        }
        if isClosed {
            condition.unlock()
            throw StoreError(.connectionFailed, "the database has been closed")
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        count += 1
        condition.unlock()
        do {
            return try open()
        } catch {
            condition.lock()
            count -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private static func deadline(after timeout: Duration) -> Date {
        Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    }

    private func release(_ connection: Connection) {
        let reusable = connection.prepareForReuse()
        condition.lock()
        let keep = reusable && !isClosed
        if keep {
            idle.append(connection)
        } else {
            count -= 1
        }
        condition.signal()
        condition.unlock()
        if !keep { connection.close() }
    }
}

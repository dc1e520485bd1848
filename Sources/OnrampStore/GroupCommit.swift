import Foundation
import OnrampPlatform

/// Group commit for SQLite's single writer: transactions that queue up while one commits are run
/// together in the next database transaction, each inside its own savepoint, and committed once.
///
/// Every caller still gets a transaction of its own: a body that throws is rolled back to its
/// savepoint and alone receives the error; the others commit. A caller returns only after the
/// shared `COMMIT` succeeded (and, with `synchronous=full`, reached the disk), and if that `COMMIT`
/// fails every caller of the group receives the error. Bodies run one after another on the writer
/// connection, so the outcome is the same as running them serially, in queue order.
///
/// Constraints are checked per statement, so a violation fails only its own body; a deferred
/// constraint (checked at `COMMIT`) would fail the whole group, so the schema must not use any.
///
/// There is no extra thread: the first waiting caller becomes the leader, runs the queued bodies
/// (its own among them), wakes their callers and hands over to the first caller still queued. Each
/// caller sleeps on a condition of its own, so finishing a group wakes exactly its members and the
/// next leader, not every queued caller (a broadcast to all of them cost futex wake-ups and task
/// switches on every commit). Under no contention a group is one plain transaction, without savepoints.
///
/// `@unchecked Sendable`: `pending`, `leading` and each job's fields are only touched with `mutex`
/// locked, or by the leader for jobs it has taken off the queue, whose callers are blocked until the
/// leader marks them done under the lock.
final class GroupCommit: @unchecked Sendable {
    /// One caller's transaction body, and what became of it.
    private final class Job {
        /// Dropped once the group is finished, before the caller wakes: the caller's closure must not
        /// outlive its call (`withoutActuallyEscaping`).
        var body: ((SQLiteConnection) throws -> Void)?
        var done = false
        /// Set when the body threw, or when the group's `BEGIN`/`COMMIT` failed.
        var error: (any Error)?
        /// Signalled (with the mutex held) when the job is done, or when its caller is to lead next.
        let wake = MonotonicCondition()

        init(_ body: @escaping (SQLiteConnection) throws -> Void) { self.body = body }

        func run(_ connection: SQLiteConnection) throws { try body?(connection) }
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var pending: [Job] = []
    private var leading = false
    /// The thread running the current group's bodies, to refuse a transaction nested in one of them
    /// (it would wait for its own group forever).
    private var leaderThread: pthread_t?
    private var statistics = GroupCommitStatistics()
    private let writer: ConnectionPool<SQLiteConnection>
    private let maximumGroupSize: Int
    private let queueTimeout: TimeInterval

    /// Groups transactions on the connection `writer` lends, at most `maximumGroupSize` at a time. A
    /// transaction still queued after `queueTimeout` seconds fails with ``StoreError/Code/busy``.
    init(writer: ConnectionPool<SQLiteConnection>, queueTimeout: TimeInterval, maximumGroupSize: Int = 64) {
        self.writer = writer
        self.queueTimeout = queueTimeout
        self.maximumGroupSize = maximumGroupSize
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// How many transactions ran and how many commits they took so far.
    var currentStatistics: GroupCommitStatistics {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return statistics
    }

    /// Runs `body` in a transaction of the next group and returns its result once the group committed.
    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        var result: T?
        let error: (any Error)? = withoutActuallyEscaping(body) { body in
            let job = Job { connection in result = try body(connection) }
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            if leading, let leaderThread, pthread_equal(leaderThread, pthread_self()) != 0 {
                return StoreError(.queryFailed, "a transaction cannot start inside another transaction")
            }
            pending.append(job)
            let deadline = MonotonicCondition.Deadline.after(seconds: queueTimeout)
            while !job.done {
                if !leading {
                    lead()
                } else if let index = pending.firstIndex(where: { $0 === job }) {
                    guard !deadline.hasPassed else {
                        pending.remove(at: index)
                        job.body = nil
                        return StoreError(.busy, "the database writer stayed busy for \(queueTimeout) seconds")
                    }
                    job.wake.wait(mutex, until: deadline)
                } else {
                    job.wake.wait(mutex)  // a leader took it: it finishes the group, however long that takes
                }
            }
            return job.error
        }
        if let error { throw error }
        guard let result else { throw StoreError(.connectionFailed, "a grouped transaction produced no result") }
        return result
    }

    /// Takes the next group off the queue, runs it with the mutex released, marks its members done and
    /// wakes them, then wakes the first caller still queued to lead the group after. Called, and
    /// returns, with the mutex locked.
    private func lead() {
        leading = true
        leaderThread = pthread_self()
        let group = Array(pending.prefix(maximumGroupSize))
        pending.removeFirst(group.count)
        pthread_mutex_unlock(mutex)
        run(group)
        pthread_mutex_lock(mutex)
        for member in group {
            member.body = nil
            member.done = true
            member.wake.signal()
        }
        statistics.transactions += group.count
        statistics.groups += 1
        leading = false
        leaderThread = nil
        pending.first?.wake.signal()
    }

    /// Runs one group in one database transaction.
    private func run(_ group: [Job]) {
        do {
            try writer.withConnection { connection in
                if group.count == 1 {
                    try connection.withTransaction(begin: "BEGIN IMMEDIATE") { _ in try group[0].run(connection) }
                    return
                }
                try connection.execute("BEGIN IMMEDIATE", [])
                do {
                    for job in group {
                        try connection.execute("SAVEPOINT grouped", [])
                        do {
                            try job.run(connection)
                            try connection.execute("RELEASE grouped", [])
                        } catch {
                            job.error = error
                            // Some failures (disk full, I/O errors) make SQLite roll back the whole transaction.
                            guard connection.isInTransaction else { throw GroupRolledBack() }
                            try connection.execute("ROLLBACK TO grouped", [])
                            try connection.execute("RELEASE grouped", [])
                        }
                    }
                    try connection.execute("COMMIT", [])
                } catch {
                    _ = try? connection.execute("ROLLBACK", [])
                    throw error
                }
            }
        } catch {
            // BEGIN, a savepoint or COMMIT failed, or SQLite rolled the group back (or a lone body threw):
            // nothing of the group is kept. Callers whose own body succeeded may simply retry.
            let shared =
                error is GroupRolledBack
                ? StoreError(.busy, "rolled back with another transaction of its group; retry") : error
            for job in group where job.error == nil { job.error = shared }
        }
    }

    /// SQLite ended the group's transaction itself after a body failed.
    private struct GroupRolledBack: Error {}
}

/// Counters of a ``SQLiteDatabase``'s group commit.
public struct GroupCommitStatistics: Sendable, Equatable {
    /// Transactions run (committed or rolled back).
    public var transactions = 0
    /// Database transactions they were grouped into.
    public var groups = 0
}

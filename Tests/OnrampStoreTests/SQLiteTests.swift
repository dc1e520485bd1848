import Foundation
import OnrampStore
import OnrampTestSupport
import Synchronization
import Testing

/// Behaviour only the SQLite driver has.
@Suite(.blocking) struct SQLiteTests {
    @Test func reusedStatementsRebindAndRecoverAfterErrors() throws {
        try withFreshDatabase(.sqlite) { url in
            let database = try DatabaseURL.open(url)
            defer { database.close() }
            try database.migrate(testMigrations)
            let insert = "INSERT INTO items (id, name) VALUES (?, ?)"
            try database.transaction { connection in
                for id in 1...200 { try connection.execute(insert, [.integer(Int64(id)), .text("n\(id)")]) }
            }
            // The same prepared INSERT fails on a duplicate, then works again with new values.
            #expect(throws: StoreError.self) {
                try database.transaction { try $0.execute(insert, [.integer(1), .text("again")]) }
            }
            try database.transaction { try $0.execute(insert, [.integer(201), .text("n201")]) }
            // The same SELECT, rebound each time, never returns a previous call's rows.
            for id in [7, 201, 999] {
                let rows = try database.read {
                    try $0.query("SELECT name FROM items WHERE id = ?", [.integer(Int64(id))])
                }
                #expect(try rows.map { try $0.string("name") } == (id == 999 ? [] : ["n\(id)"]))
            }
            // A script of several statements still runs every statement.
            try database.transaction {
                try $0.execute("DELETE FROM items WHERE id = 7; DELETE FROM items WHERE id = 8;", [])
            }
            let count = try database.read { try $0.query("SELECT COUNT(*) AS n FROM items").first?.int("n") }
            #expect(count == 199)
        }
    }

    /// A reused statement keeps the column names of its last result, but when a schema change makes
    /// SQLite re-prepare it with other columns (`SELECT *` over a table made anew), the next call names
    /// the new ones, on the writer (which ran the change) and on a reader alike.
    @Test func reusedStatementsSeeColumnsOfARecreatedTable() throws {
        try withFreshDatabase(.sqlite) { url in
            let database = try DatabaseURL.open(url)
            defer { database.close() }
            try database.transaction {
                try $0.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)", [])
                try $0.execute("INSERT INTO notes (id, body) VALUES (1, 'first')", [])
            }
            let select = "SELECT * FROM notes WHERE id = ?"
            let read = { try database.read { try #require(try $0.query(select, [.integer(1)]).first) } }
            let written = { try database.transaction { try #require(try $0.query(select, [.integer(1)]).first) } }
            #expect(try read().columns == ["id", "body"])
            #expect(try written().columns == ["id", "body"])
            try database.transaction {
                try $0.execute("DROP TABLE notes", [])
                try $0.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)", [])
                try $0.execute("INSERT INTO notes (id, title, body) VALUES (1, 'second', 'text')", [])
            }
            for row in [try read(), try written()] {
                #expect(row.columns == ["id", "title", "body"])
                #expect(try row.string("title") == "second")
                #expect(try row.string("body") == "text")
            }
        }
    }

    @Test func twoInstancesOnOneFileShareItThroughTheBusyTimeout() throws {
        try withFreshDatabase(.sqlite) { url in
            let first = try DatabaseURL.open(url)
            defer { first.close() }
            try first.migrate(testMigrations)
            let second = try DatabaseURL.open(url)
            defer { second.close() }
            try second.migrate(testMigrations)
            let failures = Mutex<[String]>([])
            onThreads(4) { thread in
                let database = thread.isMultiple(of: 2) ? first : second
                for index in 0..<50 {
                    do {
                        try database.transaction {
                            try $0.execute("INSERT INTO events (kind) VALUES (?)", [.text("\(thread)-\(index)")])
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let count = try second.read { try $0.query("SELECT COUNT(*) AS n FROM events") }
            #expect(try count.first?.int("n") == 200)
        }
    }

    /// The change watcher's descriptor polls readable after a commit, whether this instance's pools
    /// made it or another instance on the same file did, and stays quiet after reads and once drained.
    @Test func theChangeWatcherSeesCommitsOfEitherInstanceButNotReads() throws {
        try withFreshDatabase(.sqlite) { url in
            let first = try DatabaseURL.open(url)
            defer { first.close() }
            try first.migrate(testMigrations)
            let second = try DatabaseURL.open(url)
            defer { second.close() }
            let watcher = try #require(first.changeWatcher())
            func readable(within milliseconds: Int32) -> Bool {
                var descriptor = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
                return poll(&descriptor, 1, milliseconds) == 1
            }
            let insert = { (database: any Database, kind: String) in
                _ = try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES (?)", [.text(kind)]) }
            }
            watcher.drain()
            #expect(!readable(within: 0))
            try insert(first, "mine")
            #expect(readable(within: 5000))
            watcher.drain()
            #expect(!readable(within: 0))
            _ = try first.read { try $0.query("SELECT COUNT(*) AS n FROM events") }
            _ = try second.read { try $0.query("SELECT COUNT(*) AS n FROM events") }
            #expect(!readable(within: 50), "reads change nothing")
            try insert(second, "theirs")
            #expect(readable(within: 5000))
            watcher.drain()
            #expect(!readable(within: 0))
            #expect(try DatabaseURL.open("sqlite::memory:").changeWatcher() == nil)
        }
    }

    @Test func queuedTransactionsShareACommitButSucceedOrFailAlone() throws {
        struct Abort: Error {}
        try withFreshDatabase(.sqlite) { url in
            let database = try #require(try DatabaseURL.open(url) as? SQLiteDatabase)
            defer { database.close() }
            try database.migrate(testMigrations)
            let before = database.groupCommitStatistics
            let mismatches = Mutex<[String]>([])
            let committed = Mutex<Int>(0)
            onThreads(8) { thread in
                for index in 0..<40 {
                    let kind = "\(thread)-\(index)"
                    do {
                        let id = try database.transaction { connection -> Int64 in
                            let id = try connection.query(
                                "INSERT INTO events (kind) VALUES (?) RETURNING id", [.text(kind)]
                            ).first?.int("id")
                            Thread.sleep(forTimeInterval: 0.0002)  // hold the writer so that others queue
                            if index.isMultiple(of: 5) { throw Abort() }
                            if index.isMultiple(of: 7) {  // a constraint violation fails this body only
                                try connection.execute("INSERT INTO items (id, name) VALUES (1, 'taken')", [])
                                try connection.execute("INSERT INTO items (id, name) VALUES (2, 'taken')", [])
                            }
                            return id ?? -1
                        }
                        committed.withLock { $0 += 1 }
                        // The caller gets its own body's result.
                        let stored = try database.read {
                            try $0.query("SELECT kind FROM events WHERE id = ?", [.integer(id)]).first?.string("kind")
                        }
                        if stored != kind { mismatches.withLock { $0.append("\(kind) got \(stored ?? "nil")") } }
                    } catch is Abort {
                    } catch let error as StoreError where error.code == .constraintViolation {
                    } catch {
                        mismatches.withLock { $0.append("\(kind): \(error)") }
                    }
                }
            }
            #expect(mismatches.withLock { $0 } == [])
            let rows = try database.read { try $0.query("SELECT kind FROM events").map { try $0.string("kind") } }
            #expect(rows.count == committed.withLock { $0 })
            // Bodies 0, 5, …, 35 threw and 7, 14, 21, 28 hit the constraint: none of them left a row.
            let indices = rows.compactMap { $0.split(separator: "-").last.flatMap { Int($0) } }
            #expect(!indices.contains { $0.isMultiple(of: 5) || $0.isMultiple(of: 7) })
            #expect(rows.count == 8 * (40 - 8 - 4))
            let items = try database.read { try $0.query("SELECT COUNT(*) AS n FROM items").first?.int("n") }
            #expect(items == 0)
            let after = database.groupCommitStatistics
            #expect(after.transactions - before.transactions == 320)
            #expect(after.groups - before.groups < 320)
        }
    }

    /// A full disk makes SQLite roll back the whole transaction, not just the failing statement: the
    /// failing body gets its error, the others of its group a retryable busy, and nothing is kept.
    @Test func aGroupSQLiteRollsBackWholeFailsItsOthersAsRetryableBusy() throws {
        try withFreshDatabase(.sqlite) { url in
            let database = try #require(try DatabaseURL.open(url) as? SQLiteDatabase)
            defer { database.close() }
            try database.migrate(testMigrations)
            let groupsBefore = database.groupCommitStatistics.groups
            let outcomes = Mutex<[String: String]>([:])
            @Sendable func record(_ name: String, _ body: () throws -> Void) {
                let outcome: String
                do {
                    try body()
                    outcome = "committed"
                } catch let error as StoreError {
                    outcome = "\(error.code)"
                } catch {
                    outcome = "\(error)"
                }
                outcomes.withLock { $0[name] = outcome }
            }
            @Sendable func insert(_ kind: String) throws {
                try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES (?)", [.text(kind)]) }
            }
            onThreads(4) { thread in
                // The first holds the writer alone; the next three queue behind it, in order, as one group.
                Thread.sleep(forTimeInterval: 0.15 * Double(thread))
                switch thread {
                case 0:
                    record("holder") {
                        try database.transaction { connection in
                            try connection.execute("INSERT INTO events (kind) VALUES ('holder')", [])
                            Thread.sleep(forTimeInterval: 0.6)
                        }
                    }
                case 2:
                    record("disk full") {
                        try database.transaction { connection in
                            let pages = try connection.query("PRAGMA page_count").first?.int("page_count") ?? 0
                            try connection.execute("PRAGMA max_page_count = \(pages)", [])
                            try connection.execute("INSERT INTO events (kind) VALUES (hex(zeroblob(100000)))", [])
                        }
                    }
                default:
                    record(thread == 1 ? "before" : "after") { try insert(thread == 1 ? "before" : "after") }
                }
            }
            #expect(
                outcomes.withLock { $0 }
                    == ["holder": "committed", "before": "busy", "disk full": "queryFailed", "after": "busy"])
            #expect(database.groupCommitStatistics.groups - groupsBefore == 2)
            // Room again: the two that were only caught up in the rollback succeed when retried.
            try database.transaction { try $0.execute("PRAGMA max_page_count = 1073741823", []) }
            try insert("before")
            try insert("after")
            let kinds = try database.read {
                try $0.query("SELECT kind FROM events ORDER BY id").map { try $0.string("kind") }
            }
            #expect(kinds == ["holder", "before", "after"])
        }
    }

    @Test func aNestedTransactionFailsInsteadOfWaitingForever() throws {
        try withMigratedDatabase(.sqlite) { database in
            expectStoreError(.queryFailed) {
                try database.transaction { _ in
                    try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES ('inner')", []) }
                }
            }
            // The writer is free again afterwards.
            try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES ('after')", []) }
            let kinds = try database.read { try $0.query("SELECT kind FROM events").map { try $0.string("kind") } }
            #expect(kinds == ["after"])
        }
    }

    /// Another process's lock (here another instance's) is waited for up to the busy timeout, retried
    /// every millisecond by the connection's own busy handler, then refused as `busy`; and a lock
    /// released within the timeout lets the waiting transaction through.
    @Test func anotherInstancesLockIsWaitedForUpToTheBusyTimeout() throws {
        try withFreshDatabase(.sqlite) { url in
            let path = String(url.dropFirst("sqlite:".count))
            let configuration = SQLiteDatabase.Configuration(busyTimeout: .milliseconds(300))
            let holder = try SQLiteDatabase(path: path, configuration: configuration)
            defer { holder.close() }
            try holder.migrate(testMigrations)
            let waiter = try SQLiteDatabase(path: path, configuration: configuration)
            defer { waiter.close() }
            for (held, expected) in [(1.0, "busy"), (0.05, "committed")] {
                let outcome = Mutex("")
                onThreads(2) { thread in
                    if thread == 0 {
                        try? holder.transaction { connection in
                            try connection.execute("INSERT INTO events (kind) VALUES ('holder')", [])
                            Thread.sleep(forTimeInterval: held)
                        }
                    } else {
                        Thread.sleep(forTimeInterval: 0.02)
                        do {
                            try waiter.transaction { try $0.execute("INSERT INTO events (kind) VALUES ('waiter')", []) }
                            outcome.withLock { $0 = "committed" }
                        } catch let error as StoreError where error.code == .busy {
                            outcome.withLock { $0 = "busy" }
                        } catch {
                            outcome.withLock { $0 = "\(error)" }
                        }
                    }
                }
                #expect(outcome.withLock { $0 } == expected, "held \(held) s")
            }
        }
    }

    @Test func aTransactionQueuedTooLongFailsBusyAndLeavesTheQueueWorking() throws {
        try withFreshDatabase(.sqlite) { url in
            let path = String(url.dropFirst("sqlite:".count))
            let database = try SQLiteDatabase(
                path: path, configuration: SQLiteDatabase.Configuration(busyTimeout: .milliseconds(300)))
            defer { database.close() }
            try database.migrate(testMigrations)
            let outcomes = Mutex<[String]>([])
            onThreads(2) { thread in
                if thread == 0 {
                    try? database.transaction { connection in
                        try connection.execute("INSERT INTO events (kind) VALUES ('slow')", [])
                        Thread.sleep(forTimeInterval: 1.0)  // holds the writer past the queue timeout
                    }
                } else {
                    Thread.sleep(forTimeInterval: 0.1)
                    do {
                        try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES ('queued')", []) }
                        outcomes.withLock { $0.append("committed") }
                    } catch let error as StoreError {
                        outcomes.withLock { $0.append("\(error.code)") }
                    } catch {
                        outcomes.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(outcomes.withLock { $0 } == ["busy"])
            try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES ('after')", []) }
            let kinds = try database.read {
                try $0.query("SELECT kind FROM events ORDER BY id").map { try $0.string("kind") }
            }
            #expect(kinds == ["slow", "after"])
        }
    }

    @Test func readsCannotWrite() throws {
        try withMigratedDatabase(.sqlite) { database in
            expectStoreError(.queryFailed) {
                _ = try database.read {
                    try $0.execute("INSERT INTO events (kind) VALUES (?)", [.text("a")])
                }
            }
        }
    }

    @Test func aTransactionLeftOpenIsRolledBackAndTheConnectionKept() throws {
        let database = try DatabaseURL.open("sqlite::memory:")
        defer { database.close() }
        try database.migrate(testMigrations)
        try database.read { connection in
            try connection.execute("BEGIN")
            try connection.execute("INSERT INTO events (kind) VALUES (?)", [.text("left open")])
        }
        // The in-memory database lives in its one connection: it must have been kept, not replaced.
        let rows = try database.read { try $0.query("SELECT COUNT(*) AS n FROM events") }
        #expect(try rows.first?.int("n") == 0)
    }
}

import Foundation
import OnrampStore
import Testing

/// Behaviour only PostgreSQL has: row claiming for the outbox dispatcher.
@Suite(.enabled(if: !Driver.skipPostgres, "ONRAMP_SKIP_POSTGRES=1"))
struct PostgresTests {
    @Test func twoConnectionsClaimDisjointRowsWithSkipLocked() throws {
        try withMigratedDatabase(.postgres) { database in
            try database.transaction { connection in
                for id in 1...10 {
                    try connection.execute("INSERT INTO items (id) VALUES (?)", [.integer(Int64(id))])
                }
            }
            let claim = "SELECT id FROM items ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED"
            var second: [Int64] = []
            let first = try database.transaction { connection in
                let claimed = try connection.query(claim, [.integer(4)]).map { try $0.int("id") }
                // Another request's connection claims while the first transaction still holds its locks.
                second = try onAnotherThread {
                    try database.transaction { other in try other.query(claim, [.integer(4)]).map { try $0.int("id") } }
                }
                return claimed
            }
            #expect(first == [1, 2, 3, 4])
            #expect(second == [5, 6, 7, 8])
        }
    }

    /// The change watcher listens on the outbox channel: a notification sent inside a transaction
    /// wakes it when that transaction commits, not before, and once drained it is quiet again.
    @Test func theChangeWatcherWakesWhenANotifyingTransactionCommits() throws {
        try withMigratedDatabase(.postgres) { database in
            let watcher = try #require(database.changeWatcher())
            func readable(within milliseconds: Int32) -> Bool {
                var descriptor = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
                return poll(&descriptor, 1, milliseconds) == 1
            }
            watcher.drain()
            #expect(!readable(within: 0))
            try database.transaction { connection in
                _ = try connection.query("SELECT pg_notify(?, '')", [.text(outboxChannel)])
                #expect(!readable(within: 100), "not before the commit")
            }
            #expect(readable(within: 5000))
            watcher.drain()
            #expect(!readable(within: 50))
            _ = try database.read { try $0.query("SELECT 1 AS one", []) }
            #expect(!readable(within: 50), "a transaction without a notification wakes nothing")
        }
    }

    @Test func aBrokenConnectionIsReplaced() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1")
            defer { database.close() }
            let admin = try DatabaseURL.open(url)
            defer { admin.close() }
            let before = try database.read { try $0.query("SELECT pg_backend_pid() AS pid").first!.int("pid") }
            try admin.read { _ = try $0.query("SELECT pg_terminate_backend(CAST(? AS INTEGER))", [.integer(before)]) }
            expectStoreError(.connectionFailed) {
                _ = try database.read { try $0.query("SELECT 1") }
            }
            let after = try database.read { try $0.query("SELECT pg_backend_pid() AS pid").first!.int("pid") }
            #expect(after != before)
            try database.ping()
        }
    }

    /// A thread holding a pooled connection that asks for a second is refused at once: waiting could
    /// starve the pool (every holder waiting for another), as checkout once did.
    @Test func aSecondConnectionForTheSameThreadIsRefused() throws {
        try withMigratedDatabase(.postgres) { database in
            try database.transaction { _ in
                expectStoreError(.queryFailed) { try database.read { _ in } }
            }
            try database.read { _ in }
        }
    }

    @Test func aFullPoolMakesCallersWaitThenFailBusy() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1&pool_timeout=1")
            defer { database.close() }
            let started = ContinuousClock.now
            try database.transaction { _ in
                expectStoreError(.busy) { try onAnotherThread { try database.ping() } }
            }
            #expect(ContinuousClock.now - started >= .milliseconds(900))
            try database.ping()
        }
    }

    /// A read's `COMMIT` is sent without waiting for its answer, which the connection's next command
    /// reads first: the server ends the read's transaction (its backend goes idle, holding no snapshot),
    /// and reads and writes that follow on the one pooled connection see what they should.
    @Test func aReadsUnansweredCommitEndsItsTransactionAndTheConnectionServesWhatFollows() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1")
            let observer = try DatabaseURL.open(url + "&pool_size=1")
            defer {
                database.close()
                observer.close()
            }
            try database.migrate(testMigrations)
            let backend = try #require(
                try database.read { try $0.query("SELECT pg_backend_pid() AS pid WHERE ? = 1", [.integer(1)]) }
                    .first?.int("pid"))
            let state = {
                try observer.read {
                    try $0.query("SELECT state FROM pg_stat_activity WHERE pid = ?", [.integer(backend)]).first?[
                        "state"]
                }
            }
            var observed = try state()
            for _ in 0..<200 where observed != .text("idle") {
                Thread.sleep(forTimeInterval: 0.01)
                observed = try state()
            }
            #expect(observed == .text("idle"), "the read's transaction ended on the server")
            let insert = "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)"
            let count = {
                try database.read {
                    try $0.query("SELECT COUNT(*) AS n FROM items WHERE id >= ?", [.integer(0)]).first?.int("n")
                }
            }
            for id in 1...3 {
                #expect(try count() == Int64(id - 1))
                try database.transaction {
                    try $0.execute(insert, [.integer(Int64(id)), .text("item \(id)"), .integer(1)])
                }
            }
            #expect(try count() == 3)
            try database.ping()
            expectStoreError(.queryFailed) {
                _ = try database.read { try $0.query("SELECT no_such_column FROM items WHERE id = ?", [.integer(1)]) }
            }
            #expect(try count() == 3)
        }
    }

    /// Statements with parameters are prepared once per connection and reused; a rollback, a parameter
    /// turning NULL or a schema change under a prepared `SELECT *` must not break them.
    /// A transaction's `BEGIN` goes out in one pipeline with its first statement that has parameters:
    /// that statement runs inside the transaction (a read's is read-only and repeatable-read), and a
    /// first statement that cannot be prepared or breaks a constraint fails alone, leaving the one
    /// pooled connection usable. A body that runs nothing opens no transaction.
    @Test func theBeginTravelsWithTheFirstStatementAndItsFailuresStayTheirOwn() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1")
            defer { database.close() }
            try database.migrate(testMigrations)
            let settings = try database.read { connection in
                try connection.query(
                    """
                    SELECT current_setting('transaction_isolation') AS isolation,
                        current_setting('transaction_read_only') AS read_only WHERE ? = 1
                    """, [.integer(1)]
                ).first
            }
            #expect(settings?["isolation"] == .text("repeatable read"))
            #expect(settings?["read_only"] == .text("on"))
            let insert = "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)"
            let count = {
                try database.read {
                    try $0.query("SELECT COUNT(*) AS n FROM items WHERE id >= ?", [.integer(0)]).first?.int("n")
                }
            }
            expectStoreError(.constraintViolation) {
                try database.transaction { connection in
                    try connection.execute(insert, [.integer(7), .text("first"), .integer(1)])
                    try connection.execute(insert, [.integer(7), .text("again"), .integer(1)])
                }
            }
            #expect(try count() == 0, "the first statement was inside the rolled-back transaction")
            try database.transaction { try $0.execute(insert, [.integer(8), .text("kept"), .integer(1)]) }
            expectStoreError(.queryFailed) {
                try database.transaction {
                    _ = try $0.query("SELECT no_such_column FROM items WHERE id = ?", [.integer(8)])
                }
            }
            expectStoreError(.constraintViolation) {
                _ = try database.transaction { try $0.execute(insert, [.integer(8), .text("twice"), .integer(1)]) }
            }
            #expect(try count() == 1)
            #expect(try database.transaction { _ in 5 } == 5)
            #expect(try database.read { _ in 6 } == 6)
        }
    }

    /// A batch is one pipeline: it opens its transaction (a read's is read-only and repeatable-read), its
    /// statements are prepared once per connection (the same new SQL twice in one batch too) and reused
    /// by later batches, and a statement a schema change outdated fails the batch as retryable.
    @Test func aBatchTravelsInOnePipelineWithItsTransaction() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1")
            defer { database.close() }
            try database.migrate(testMigrations)
            let settings = try database.read { connection in
                try connection.run([
                    SQLStatement("SELECT current_setting('transaction_isolation') AS value WHERE ? = 1", [.integer(1)]),
                    SQLStatement("SELECT current_setting('transaction_read_only') AS value WHERE ? = 1", [.integer(1)]),
                ])
            }
            #expect(settings.map { $0.rows.first?["value"] } == [.text("repeatable read"), .text("on")])
            let insert = "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)"
            let select = "SELECT * FROM items WHERE id >= ? ORDER BY id"
            let prepared = {
                try database.read {
                    try $0.query("SELECT COUNT(*) AS n FROM pg_prepared_statements WHERE name LIKE 'onramp%'")
                        .first?.int("n") ?? 0
                }
            }
            try database.transaction { connection in
                _ = try connection.run([
                    SQLStatement(insert, [.integer(1), .text("one"), .integer(1)]),
                    SQLStatement(insert, [.integer(2), .text("two"), .integer(1)]),
                ])
            }
            let afterFirst = try prepared()
            for id in Int64(3)...5 {
                let outcomes = try database.transaction { connection in
                    try connection.run([
                        SQLStatement(insert, [.integer(id), .text("item \(id)"), .integer(1)]),
                        SQLStatement(select, [.integer(0)]),
                    ])
                }
                #expect(outcomes[1].rows.count == Int(id))
            }
            #expect(try prepared() == afterFirst + 1, "the insert prepared once, the select once, then reused")
            // A schema change outdates the prepared SELECT *: inside the batch's transaction it fails as
            // retryable, and the next batch prepares it afresh.
            try database.transaction { try $0.execute("ALTER TABLE items ADD COLUMN note TEXT", []) }
            expectStoreError(.statementOutdated) {
                try database.transaction { _ = try $0.run([SQLStatement(select, [.integer(0)])]) }
            }
            let rows = try database.transaction { try $0.run([SQLStatement(select, [.integer(0)])]) }[0].rows
            #expect(rows.count == 5)
            #expect(rows.first?.columns.contains("note") == true)
        }
    }

    @Test func preparedStatementsAreReusedAndSurviveRollbacksAndSchemaChanges() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1")
            defer { database.close() }
            try database.migrate(testMigrations)
            let insert = "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)"
            // Prepared inside a transaction that rolls back: still usable afterwards.
            expectStoreError(.queryFailed) {
                try database.transaction { connection in
                    try connection.execute(insert, [.integer(1), .text("rolled back"), .integer(5)])
                    _ = try connection.query("SELECT no_such_column FROM items WHERE id = ?", [.integer(1)])
                }
            }
            try database.transaction { try $0.execute(insert, [.integer(1), .text("one"), .integer(5)]) }
            // The same SQL with a NULL where an integer was: another parameter type, another statement.
            try database.transaction { try $0.execute(insert, [.integer(2), .text("two"), .null]) }
            let select = "SELECT * FROM items WHERE id >= ? ORDER BY id"
            let names = { try database.read { try $0.query(select, [.integer(1)]).map { try $0.string("name") } } }
            #expect(try names() == ["one", "two"])
            let prepared = try database.read {
                try $0.query("SELECT COUNT(*) AS n FROM pg_prepared_statements WHERE name LIKE 'onramp%'").first?.int(
                    "n")
            }
            #expect((prepared ?? 0) >= 3)
            // A new column changes what the prepared SELECT * returns: PostgreSQL refuses the old plan (0A000);
            // outside a transaction the statement is prepared afresh and run again at once.
            try database.transaction { try $0.execute("ALTER TABLE items ADD COLUMN note TEXT", []) }
            #expect(try names() == ["one", "two"])
            // Inside a transaction it cannot be run again: that transaction fails as retryable, the next
            // one works; a read (a read-only transaction) is run again at once.
            try database.transaction { try $0.execute("ALTER TABLE items ADD COLUMN extra TEXT", []) }
            expectStoreError(.statementOutdated) {
                try database.transaction { _ = try $0.query(select, [.integer(1)]) }
            }
            #expect(try database.transaction { try $0.query(select, [.integer(1)]).count } == 2)
            try database.transaction { try $0.execute("ALTER TABLE items ADD COLUMN third TEXT", []) }
            #expect(try names() == ["one", "two"])
            let left = try database.read {
                try $0.query("SELECT COUNT(*) AS n FROM pg_prepared_statements WHERE name LIKE 'onramp%'").first?.int(
                    "n")
            }
            #expect((left ?? 0) <= 2)
            let columns = try database.read { try $0.query(select, [.integer(1)]).first?.columns ?? [] }
            #expect(columns.contains("note"))
            // A renamed column leaves as many columns: the names kept with the statement are read afresh
            // with the statement PostgreSQL refuses to run under its old result type.
            try database.transaction { try $0.execute("ALTER TABLE items RENAME COLUMN name TO title", []) }
            #expect(
                try database.read { try $0.query(select, [.integer(1)]).map { try $0.string("title") } } == [
                    "one", "two",
                ])
        }
    }
}

import Foundation
import OnrampStore
import OnrampTestSupport
import Synchronization
import Testing

/// The same behaviour checked against every driver in one run.
@Suite(.blocking) struct DatabaseTests {
    /// Statement texts of one length that differ only in the middle never share a connection's cached
    /// prepared statement: each answers its own value, every time.
    @Test(arguments: Driver.all)
    func statementsThatDifferOnlyInTheMiddleKeepTheirOwnPreparedStatements(driver: Driver) throws {
        try withFreshDatabase(driver) { url in
            let database = try DatabaseURL.open(url)
            defer { database.close() }
            let padding = String(repeating: "p", count: 60)
            let texts = ["a", "b", "c"].map { "SELECT '\(padding)\($0)\(padding)' AS value WHERE 1 = ?" }
            for _ in 0..<3 {
                for text in texts {
                    let value = try database.read { try $0.query(text, [.integer(1)]).first?.string("value") }
                    #expect(value == String(text.dropFirst(8).prefix(121)), "\(text)")
                }
            }
        }
    }

    @Test(arguments: Driver.all)
    func migrationsApplyOnceAndSurviveReopening(driver: Driver) throws {
        try withFreshDatabase(driver) { url in
            let first = try DatabaseURL.open(url)
            try first.migrate(testMigrations)
            try first.migrate(testMigrations)
            try first.transaction {
                try $0.execute("INSERT INTO items (id, name) VALUES (?, ?)", [.integer(1), .text("kept")])
            }
            first.close()

            let third = Migration(
                version: 3, name: "notes", sql: "CREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT)")
            let reopened = try DatabaseURL.open(url)
            defer { reopened.close() }
            try reopened.migrate(testMigrations + [third])
            let applied = try reopened.read {
                try $0.query("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
            }
            #expect(try applied.map { try $0.int("version") } == [1, 2, 3])
            #expect(try applied.map { try $0.string("name") } == ["items", "events", "notes"])
            #expect(applied.allSatisfy { $0.optionalString("applied_at") != nil })
            let kept = try reopened.read { try $0.query("SELECT name FROM items") }
            #expect(try kept.map { try $0.string("name") } == ["kept"])
        }
    }

    @Test(arguments: Driver.all)
    func migrationHistoryConflictsAndFailuresAreReported(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let renamed = Migration(version: 2, name: "renamed", sql: "SELECT 1")
            expectStoreError(.migrationFailed) {
                try database.migrate([renamed])
            }
            let broken = Migration(
                version: 4, name: "broken",
                sql: "CREATE TABLE half (id BIGINT PRIMARY KEY); CREATE TABLE half (id BIGINT)")
            expectStoreError(.migrationFailed) {
                try database.migrate([broken])
            }
            let versions = try database.read { try $0.query("SELECT version FROM schema_migrations") }
            #expect(versions.count == 2)
            try database.transaction { try $0.execute("CREATE TABLE half (id BIGINT PRIMARY KEY)") }
        }
    }

    @Test(arguments: Driver.all)
    func everyValueRoundTrips(driver: Driver) throws {
        let texts = ["", "plain", "héllo ✓ 日本語 🚀", "it's 'quoted' \"twice\" ? $1 \\ -- /*", "12.345678"]
        let blobs: [[UInt8]] = [[], [0], [0, 1, 127, 128, 255, 0], (0..<1_000).map { UInt8($0 % 256) }]
        let integers: [Int64] = [0, 1, -1, .max, .min, 4_294_967_296]
        try withMigratedDatabase(driver) { database in
            var rows: [[SQLValue]] = []
            for (offset, text) in texts.enumerated() {
                rows.append([.integer(Int64(offset)), .text(text), .null, .integer(integers[offset])])
            }
            for (offset, blob) in blobs.enumerated() {
                rows.append([.integer(Int64(100 + offset)), .null, .blob(blob), .null])
            }
            rows.append([.integer(200), .null, .null, .integer(integers[5])])
            try database.transaction { connection in
                for row in rows {
                    let changed = try connection.execute(
                        "INSERT INTO items (id, amount, data, quantity) VALUES (?, ?, ?, ?)", row)
                    #expect(changed == 1)
                }
            }
            let read = try database.read {
                try $0.query("SELECT id, amount, data, quantity FROM items ORDER BY id")
            }
            #expect(read.map(\.values) == rows)
            #expect(read.first?.columns == ["id", "amount", "data", "quantity"])

            for value in rows.joined() where value != .null {
                let echoed = try database.read { try $0.query("SELECT ? AS v", [value]) }
                #expect(echoed.first?["v"] == value)
            }
            let null = try database.read { try $0.query("SELECT ? AS v", [.null]) }
            #expect(null.first?["v"] == .null)
        }
    }

    /// PostgreSQL would cut `victim\0evil` to `victim` (libpq sends C strings); both drivers refuse it
    /// before running anything.
    @Test(arguments: Driver.all)
    func textWithANulIsRefusedNotTruncated(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            expectStoreError(.invalidText) {
                try database.transaction {
                    _ = try $0.execute(
                        "INSERT INTO items (id, name) VALUES (?, ?)", [.integer(1), .text("victim\0evil")])
                }
            }
            expectStoreError(.invalidText) {
                _ = try database.read { try $0.query("SELECT id FROM items WHERE name = ?", [.text("a\0")]) }
            }
            let rows = try database.read { try $0.query("SELECT id FROM items") }
            #expect(rows.isEmpty)
        }
    }

    @Test(arguments: Driver.all)
    func parametersWithQuotesAndQuestionMarksStayValues(driver: Driver) throws {
        let tricky = "x'); DROP TABLE items; -- ? '?' \"?\" $1"
        try withMigratedDatabase(driver) { database in
            try database.transaction {
                try $0.execute(
                    "INSERT INTO items (id, name, amount) VALUES (?, ?, 'literal ? and ''?''')",
                    [.integer(1), .text(tricky)])
            }
            let found = try database.read {
                try $0.query(
                    "SELECT name, amount, '?' AS mark FROM items WHERE name = ? /* ? */ -- ?\n AND id = ?",
                    [.text(tricky), .integer(1)])
            }
            #expect(found.count == 1)
            #expect(found.first?["name"] == .text(tricky))
            #expect(found.first?["amount"] == .text("literal ? and '?'"))
            #expect(found.first?["mark"] == .text("?"))

            expectStoreError(.queryFailed) {
                _ = try database.read { try $0.query("SELECT ? AS a, ? AS b", [.integer(1)]) }
            }
        }
    }

    @Test(arguments: Driver.all)
    func aThrowingTransactionLeavesNothingWritten(driver: Driver) throws {
        struct Abort: Error {}
        try withMigratedDatabase(driver) { database in
            #expect(throws: Abort.self) {
                try database.transaction { connection in
                    try connection.execute("INSERT INTO items (id, name) VALUES (?, ?)", [.integer(1), .text("a")])
                    try connection.execute("INSERT INTO events (kind) VALUES (?)", [.text("created")])
                    throw Abort()
                }
            }
            let counts = try database.read {
                try $0.query("SELECT (SELECT COUNT(*) FROM items) AS i, (SELECT COUNT(*) FROM events) AS e")
            }
            #expect(try counts.first?.int("i") == 0)
            #expect(try counts.first?.int("e") == 0)
        }
    }

    /// Typed queries: one or several in one batch, each answering its own value (no outcome read by position),
    /// in a transaction and as one read; `map` turns a value into another.
    @Test(arguments: Driver.all)
    func typedQueriesAnswerTheirOwnValues(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let insert = { (id: Int64, name: String) in
                SQLQuery<Int>.changing(
                    "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)", [.integer(id), .text(name), .integer(3)])
            }
            let names = SQLQuery("SELECT name FROM items ORDER BY id") { try $0.rows.map { try $0.string("name") } }
            let quantity = { (id: Int64) in
                SQLQuery("SELECT quantity FROM items WHERE id = ?", [.integer(id)]) {
                    try $0.rows.first?.int("quantity")
                }
            }
            let (first, second, listed) = try database.transaction { connection in
                try connection.run(insert(1, "one"), insert(2, "two"), names)
            }
            #expect(first == 1 && second == 1 && listed == ["one", "two"])
            let (all, missing, present) = try database.read(names, quantity(99), quantity(2))
            #expect(all == ["one", "two"] && missing == nil && present == 3)
            #expect(try database.read(names.map(\.count)) == 2)
            #expect(try database.read { try $0.run(quantity(1)) } == 3)
        }
    }

    /// A batch runs its statements in order (each sees the ones before), answers each one's rows and
    /// changes, and a failure anywhere fails it whole: the transaction around it leaves nothing written.
    @Test(arguments: Driver.all)
    func aBatchRunsInOrderAndFailsWhole(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let insert = "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)"
            let outcomes = try database.transaction { connection in
                try connection.run([
                    SQLStatement(insert, [.integer(1), .text("one"), .integer(5)]),
                    SQLStatement("UPDATE items SET quantity = quantity + ? WHERE id = ?", [.integer(2), .integer(1)]),
                    SQLStatement("UPDATE items SET quantity = ? WHERE id = ?", [.integer(0), .integer(99)]),
                    SQLStatement("SELECT name, quantity FROM items WHERE id >= ? ORDER BY id", [.integer(0)]),
                ])
            }
            #expect(outcomes.map(\.changes) == [1, 1, 0, 0])
            #expect(try outcomes[3].rows.map { try $0.string("name") } == ["one"])
            #expect(try outcomes[3].rows.first?.int("quantity") == 7)
            #expect(try database.transaction { try $0.run([]) }.isEmpty)

            // The second statement breaks the unique name: the first is rolled back with it, the third
            // never takes effect.
            expectStoreError(.constraintViolation) {
                try database.transaction { connection in
                    _ = try connection.run([
                        SQLStatement(insert, [.integer(2), .text("two"), .integer(1)]),
                        SQLStatement(insert, [.integer(3), .text("one"), .integer(1)]),
                        SQLStatement(insert, [.integer(4), .text("four"), .integer(1)]),
                    ])
                }
            }
            expectStoreError(.queryFailed) {
                try database.transaction { connection in
                    _ = try connection.run([
                        SQLStatement(insert, [.integer(5), .text("five"), .integer(1)]),
                        SQLStatement("SELECT ? AS a, ? AS b", [.integer(1)]),
                    ])
                }
            }
            let read = try database.read { connection in
                try connection.run([
                    SQLStatement("SELECT COUNT(*) AS n FROM items WHERE id >= ?", [.integer(0)]),
                    SQLStatement("SELECT name FROM items WHERE id = ?", [.integer(1)]),
                ])
            }
            #expect(try read[0].rows.first?.int("n") == 1)
            #expect(try read[1].rows.first?.string("name") == "one")
        }
    }

    /// A read of a batch answers each statement in order from one snapshot, read-only, and a failure
    /// fails it whole and leaves the connection ready (on PostgreSQL its `BEGIN`, statements and `COMMIT`
    /// share one pipeline, so the failed transaction is still open when the batch returns).
    @Test(arguments: Driver.all)
    func aReadBatchIsOneReadOnlySnapshotAndAFailureLeavesTheConnectionReady(driver: Driver) throws {
        try withFreshDatabase(driver) { url in
            let database = try DatabaseURL.open(driver == .postgres ? url + "&pool_size=1" : url)
            defer { database.close() }
            try database.migrate(testMigrations)
            let insert = "INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)"
            try database.transaction { connection in
                _ = try connection.run([
                    SQLStatement(insert, [.integer(1), .text("one"), .integer(5)]),
                    SQLStatement(insert, [.integer(2), .text("two"), .integer(6)]),
                ])
            }
            let outcomes = try database.read([
                SQLStatement("SELECT COUNT(*) AS n FROM items WHERE id >= ?", [.integer(0)]),
                SQLStatement("SELECT name FROM items WHERE id = ?", [.integer(2)]),
                SQLStatement("SELECT quantity FROM items WHERE id = ?", [.integer(99)]),
            ])
            #expect(try outcomes[0].rows.first?.int("n") == 2)
            #expect(try outcomes[1].rows.first?.string("name") == "two")
            #expect(outcomes[2].rows.isEmpty)
            #expect(try database.read([]).isEmpty)
            expectStoreError(.queryFailed) {
                _ = try database.read([
                    SQLStatement("SELECT name FROM items WHERE id = ?", [.integer(1)]),
                    SQLStatement("SELECT no_such_column FROM items WHERE id = ?", [.integer(1)]),
                ])
            }
            // Read-only: a write in the batch is refused and changes nothing.
            #expect(throws: StoreError.self) {
                _ = try database.read([SQLStatement("DELETE FROM items WHERE id = ?", [.integer(1)])])
            }
            try database.transaction { try $0.execute(insert, [.integer(3), .text("three"), .integer(7)]) }
            let after = try database.read([SQLStatement("SELECT COUNT(*) AS n FROM items WHERE id >= ?", [.integer(0)])]
            )
            #expect(try after[0].rows.first?.int("n") == 3)
            if driver == .postgres {
                let settings = try database.read([
                    SQLStatement("SELECT current_setting('transaction_isolation') AS value WHERE ? = 1", [.integer(1)]),
                    SQLStatement("SELECT current_setting('transaction_read_only') AS value WHERE ? = 1", [.integer(1)]),
                ])
                #expect(settings.map { $0.rows.first?["value"] } == [.text("repeatable read"), .text("on")])
            }
        }
    }

    @Test(arguments: Driver.all)
    func uniqueViolationsHaveTheirOwnCode(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            try database.transaction {
                try $0.execute("INSERT INTO items (id, name) VALUES (?, ?)", [.integer(1), .text("value-one-7f3a")])
            }
            for (id, name) in [(1, "value-other-7f3a"), (2, "value-one-7f3a")] {
                let error = #expect(throws: StoreError.self) {
                    try database.transaction {
                        try $0.execute(
                            "INSERT INTO items (id, name) VALUES (?, ?)", [.integer(Int64(id)), .text(name)])
                    }
                }
                #expect(error?.code == .constraintViolation)
                #expect(error?.message.contains(name) == false, "no parameter values in messages")
            }
            try database.transaction {
                try $0.execute("INSERT INTO items (id, name) VALUES (?, ?)", [.integer(2), .text("two")])
            }
            let count = try database.read { try $0.query("SELECT COUNT(*) AS n FROM items") }
            #expect(try count.first?.int("n") == 2)
        }
    }

    @Test(arguments: Driver.all)
    func concurrentWritersAllLand(driver: Driver) throws {
        let threads = 8
        let perThread = 100
        try withMigratedDatabase(driver) { database in
            let failures = Mutex<[String]>([])
            onThreads(threads) { thread in
                for index in 0..<perThread {
                    do {
                        try database.transaction { connection in
                            let id = Int64(thread * perThread + index)
                            try connection.execute(
                                "INSERT INTO items (id, name, amount) VALUES (?, ?, ?)",
                                [.integer(id), .text("item \(id)"), .text("\(id).50")])
                            _ = try connection.query("SELECT COUNT(*) AS n FROM items")
                        }
                        _ = try database.read { try $0.query("SELECT COUNT(*) AS n FROM items") }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let count = try database.read { try $0.query("SELECT COUNT(*) AS n FROM items") }
            #expect(try count.first?.int("n") == Int64(threads * perThread))
        }
    }

    @Test(arguments: Driver.all)
    func returningAndUpsertsWork(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let ids = try database.transaction { connection in
                try ["created", "paid"].map { kind in
                    try connection.query("INSERT INTO events (kind) VALUES (?) RETURNING id", [.text(kind)])
                        .first!.int("id")
                }
            }
            #expect(ids.count == 2 && ids[1] > ids[0])

            let upsert = """
                INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET quantity = items.quantity + excluded.quantity
                RETURNING id, quantity
                """
            for _ in 0..<3 {
                _ = try database.transaction {
                    try $0.query(upsert, [.integer(7), .text("seven"), .integer(5)])
                }
            }
            let quantity = try database.read { try $0.query("SELECT quantity FROM items WHERE id = ?", [.integer(7)]) }
            #expect(try quantity.first?.int("quantity") == 15)

            let ignored = try database.transaction {
                try $0.execute(
                    "INSERT INTO items (id, name) VALUES (?, ?) ON CONFLICT DO NOTHING", [.integer(7), .text("again")])
            }
            #expect(ignored == 0)
            let updated = try database.transaction {
                try $0.execute("UPDATE items SET amount = ? WHERE id >= ?", [.text("1.00"), .integer(0)])
            }
            #expect(updated == 1)
        }
    }

    @Test(arguments: Driver.all)
    func readsSeeOnlyCommittedDataWithoutWaitingForWriters(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let count = "SELECT COUNT(*) AS n FROM items"
            try database.transaction { connection in
                try connection.execute("INSERT INTO items (id) VALUES (?)", [.integer(1)])
                #expect(try connection.query(count).first?.int("n") == 1)
                let seen = try onAnotherThread { try database.read { try $0.query(count) }.first?.int("n") }
                #expect(seen == 0)
            }
            #expect(try database.read { try $0.query(count) }.first?.int("n") == 1)
        }
    }

    /// A thread holding a pooled connection is refused a second one from the same pool (waiting for it
    /// could starve the pool); once it gives the first back it may borrow again, and other threads are
    /// never refused.
    @Test(arguments: Driver.all)
    func aThreadIsRefusedASecondPooledConnection(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let elsewhere = try database.read { _ -> Int in
                expectStoreError(.queryFailed) { _ = try database.read { try $0.query("SELECT 1") } }
                expectStoreError(.queryFailed) { try database.ping() }
                return try onAnotherThread { try database.read { try $0.query("SELECT 1 AS one") }.count }
            }
            #expect(elsewhere == 1)
            #expect(try database.read { try $0.query("SELECT 1 AS one") }.count == 1)
            try database.ping()
        }
    }

    @Test(arguments: Driver.all)
    func pingAnswers(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            try database.ping()
            #expect(database.dialect == (driver == .sqlite ? .sqlite : .postgres))
        }
    }

    @Test(arguments: Driver.all)
    func rowAccessorsCheckTypes(driver: Driver) throws {
        try withMigratedDatabase(driver) { database in
            let row = try database.read {
                try $0.query(
                    "SELECT ? AS t, ? AS i, ? AS b, ? AS n, 1 = 1 AS yes, SUM(quantity) AS total FROM items",
                    [.text("x"), .integer(3), .blob([1]), .null])
            }.first!
            #expect(try row.string("t") == "x")
            #expect(try row.int("i") == 3)
            #expect(try row.blob("b") == [1])
            #expect(row.optionalString("n") == nil)
            #expect(row.optionalInt("n") == nil)
            #expect(row.optionalInt("i") == 3)
            #expect(row.optionalInt("t") == nil && row.optionalInt("b") == nil && row.optionalInt("missing") == nil)
            #expect(row["missing"] == .null)
            #expect(row["yes"] == .integer(1), "booleans read as 0 or 1 on both drivers")
            #expect(row["total"] == .null)
            for check in [{ _ = try row.int("t") }, { _ = try row.string("i") }, { _ = try row.blob("missing") }] {
                let error = #expect(throws: StoreError.self) { try check() }
                #expect(error?.code == .typeMismatch)
            }
        }
    }
}

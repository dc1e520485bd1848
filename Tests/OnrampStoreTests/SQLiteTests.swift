import OnrampStore
import Synchronization
import Testing

/// Behaviour only the SQLite driver has.
@Suite struct SQLiteTests {
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

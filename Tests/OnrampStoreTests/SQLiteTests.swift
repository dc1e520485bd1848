import OnrampStore
import Synchronization
import Testing

/// Behaviour only the SQLite driver has.
@Suite struct SQLiteTests {
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
}

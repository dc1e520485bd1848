import Foundation
import OnrampStore
import Testing

@Suite struct DatabaseURLTests {
    @Test(arguments: [
        "", "mysql://root@localhost/db", "sqlite:", "sqlite://", "just words",
        "postgres://user@localhost/db?not_a_libpq_option=1", "postgres://u@h/db?pool_size=0",
        "host=localhost port",
    ])
    func badURLsAreRejected(url: String) {
        expectStoreError(.invalidURL) { _ = try DatabaseURL.open(url) }
    }

    @Test func anUnreachableServerFailsToConnect() {
        expectStoreError(.connectionFailed) {
            _ = try DatabaseURL.open("postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
        }
    }

    @Test func inMemorySQLiteWorks() throws {
        let database = try DatabaseURL.open("sqlite::memory:")
        defer { database.close() }
        try database.migrate(testMigrations)
        try database.transaction { try $0.execute("INSERT INTO events (kind) VALUES (?)", [.text("a")]) }
        let rows = try database.read { try $0.query("SELECT kind FROM events") }
        #expect(try rows.map { try $0.string("kind") } == ["a"])
    }

    @Test func sqliteReadsCannotWrite() throws {
        try withMigratedDatabase(.sqlite) { database in
            expectStoreError(.queryFailed) {
                _ = try database.read {
                    try $0.execute("INSERT INTO events (kind) VALUES (?)", [.text("a")])
                }
            }
        }
    }
}

@Suite struct RetryTests {
    @Test func retryableErrorsAreRetried() throws {
        var attempts = 0
        let result = try withRetry(maxAttempts: 3) {
            attempts += 1
            if attempts < 3 { throw StoreError(.serializationFailure, "try again") }
            return "done"
        }
        #expect(result == "done" && attempts == 3)
    }

    @Test func otherErrorsAndExhaustionAreRethrown() {
        var attempts = 0
        expectStoreError(.constraintViolation) {
            try withRetry(maxAttempts: 5) {
                attempts += 1
                throw StoreError(.constraintViolation, "duplicate")
            }
        }
        #expect(attempts == 1)
        attempts = 0
        expectStoreError(.busy) {
            try withRetry(maxAttempts: 2) {
                attempts += 1
                throw StoreError(.busy, "locked")
            }
        }
        #expect(attempts == 2)
    }
}

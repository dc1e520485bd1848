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
}

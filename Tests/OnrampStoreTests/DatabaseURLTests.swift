import Foundation
import OnrampStore
import OnrampTestSupport
import Testing

@Suite(.blocking) struct DatabaseURLTests {
    @Test(arguments: [
        "", "mysql://root@localhost/db", "sqlite:", "sqlite://", "just words",
        "postgres://user@localhost/db?not_a_libpq_option=1", "postgres://u@h/db?pool_size=0",
        "host=localhost port", "sqlite:/tmp/x.db?synchronous=off", "sqlite:/tmp/x.db?journal=delete",
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

    @Test func sqliteSynchronousLevelComesFromTheURL() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try DatabaseURL.open("sqlite:\(path)?synchronous=normal")
        defer { database.close() }
        // PRAGMA synchronous: 1 = NORMAL, 2 = FULL.
        let level = try database.transaction { try $0.query("PRAGMA synchronous").first?.int("synchronous") }
        #expect(level == 1)
    }
}

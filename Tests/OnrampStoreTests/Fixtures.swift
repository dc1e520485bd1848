import Foundation
import OnrampStore
import Testing

/// A fresh, empty database for one test: a new temp file for SQLite, a new schema (selected through
/// `search_path` in the URL) for PostgreSQL. Removed when the body returns.
func withFreshDatabase(_ driver: Driver, _ body: (_ url: String) throws -> Void) throws {
    let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    switch driver {
    case .sqlite:
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).db").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try body("sqlite:\(path)")
    case .postgres:
        guard let base = ProcessInfo.processInfo.environment["ONRAMP_TEST_POSTGRES_URL"] else {
            throw MissingPostgres()
        }
        let admin = try DatabaseURL.open(base)
        defer { admin.close() }
        try admin.transaction { try $0.execute("CREATE SCHEMA \(name)") }
        defer { _ = try? admin.transaction { try $0.execute("DROP SCHEMA \(name) CASCADE") } }
        let separator = base.contains("?") ? "&" : "?"
        try body("\(base)\(separator)options=-csearch_path%3D\(name)")
    }
}

/// Opens a fresh database with ``testMigrations`` applied and hands it to `body`.
func withMigratedDatabase(_ driver: Driver, _ body: (any Database) throws -> Void) throws {
    try withFreshDatabase(driver) { url in
        let database = try DatabaseURL.open(url)
        defer { database.close() }
        try database.migrate(testMigrations)
        try body(database)
    }
}

/// The schema the tests use.
let testMigrations = [
    Migration(
        version: 1, name: "items",
        sql: """
            CREATE TABLE items (
              id BIGINT PRIMARY KEY,
              name TEXT UNIQUE,
              amount TEXT,
              data BLOB,
              quantity BIGINT
            );
            CREATE INDEX items_amount ON items (amount);
            """,
        postgresSQL: """
            CREATE TABLE items (
              id BIGINT PRIMARY KEY,
              name TEXT UNIQUE,
              amount TEXT,
              data BYTEA,
              quantity BIGINT
            );
            CREATE INDEX items_amount ON items (amount);
            """),
    Migration(
        version: 2, name: "events",
        sql: "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL)",
        postgresSQL: "CREATE TABLE events (id BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL)"),
]

/// Runs `body` on `count` real threads at once (not the cooperative pool) and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Expects `body` to throw a ``StoreError`` with `code`.
func expectStoreError(
    _ code: StoreError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == code, sourceLocation: sourceLocation)
}

/// Runs `body` on another thread and waits for its result, as a second request would: a pool refuses a
/// second connection to the thread that holds one.
func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Thread {
        box.set(Result(catching: body))
        done.signal()
    }.start()
    done.wait()
    return try box.get()
}

/// One result handed from a thread to its waiter.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    // Written once by the worker before it signals, read by the waiter after.
    private var result: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { result = value }
    func get() throws -> T { try result!.get() }
}

import Foundation
import OnrampStore
import Testing

/// SQLite's counters of full-scan steps and sorts, collected per statement by ``StatementScanLog``.
struct StatementScanLogTests {
    /// The log itself: a lookup on an unindexed column is reported with its steps, an indexed one is not.
    @Test func theLogReportsAScanAndNotAnIndexedLookup() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString).db").path
        let database = try SQLiteDatabase(path: path)
        defer {
            database.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try database.transaction { connection in
            try connection.execute("CREATE TABLE t (id TEXT PRIMARY KEY, name TEXT)", [])
            for index in 0..<10 {
                try connection.execute("INSERT INTO t VALUES (?, ?)", [.text("\(index)"), .text("n")])
            }
        }
        _ = try database.read { try $0.query("SELECT * FROM t WHERE id = ?", [.text("3")]) }
        #expect(database.scanLog.statements.isEmpty)
        _ = try database.read { try $0.query("SELECT * FROM t WHERE name = ?", [.text("n")]) }
        _ = try database.read { try $0.query("SELECT * FROM t WHERE id > ? ORDER BY name", [.text("")]) }
        let entries = database.scanLog.statements
        #expect(entries.map(\.sql) == ["SELECT * FROM t WHERE id > ? ORDER BY name", "SELECT * FROM t WHERE name = ?"])
        #expect(entries.last?.fullScanSteps == 9)
        #expect(entries.first?.sorts == 1)
    }
}

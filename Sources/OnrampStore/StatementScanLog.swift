import Synchronization

/// The statements that read a whole table or sorted their rows, as SQLite itself counted them while
/// they ran (`SQLITE_STMTSTATUS_FULLSCAN_STEP` and `SQLITE_STMTSTATUS_SORT`): a lookup without a
/// fitting index costs the size of its table, so on a request path it is a bug that grows with the
/// data. Kept by ``SQLiteDatabase`` for its connections; tests run the request paths and read it.
public final class StatementScanLog: Sendable {
    /// What one statement did, summed over its runs.
    public struct Entry: Sendable, Equatable {
        /// The statement's SQL text.
        public let sql: String
        /// Rows stepped through by full table scans.
        public var fullScanSteps: Int
        /// Sorts it made (an `ORDER BY` no index provides).
        public var sorts: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Creates an empty log.
    public init() {}

    /// Adds a run of `sql` that scanned `fullScanSteps` rows and made `sorts` sorts.
    func record(sql: String, fullScanSteps: Int, sorts: Int) {
        entries.withLock { entries in
            entries[sql, default: Entry(sql: sql, fullScanSteps: 0, sorts: 0)].fullScanSteps += fullScanSteps
            entries[sql]?.sorts += sorts
        }
    }

    /// Forgets what was logged so far (what set-up ran, such as migrations, before what is measured).
    public func reset() {
        entries.withLock { $0.removeAll() }
    }

    /// Every statement that scanned or sorted so far.
    public var statements: [Entry] {
        entries.withLock { Array($0.values) }.sorted { $0.sql < $1.sql }
    }
}

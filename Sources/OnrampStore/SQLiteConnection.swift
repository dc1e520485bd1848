import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection handle.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: a handle is only ever used by the one thread that borrowed
/// it from a ``ConnectionPool``, so SQLite's own per-call mutex would be redundant. That exclusive
/// lending is also why `@unchecked Sendable` is sound: the handle moves between threads but is never
/// used by two at once.
final class SQLiteConnection: PooledConnection, SQLConnection, @unchecked Sendable {
    var dialect: SQLDialect { .sqlite }
    /// `SQLITE_TRANSIENT`, a macro Swift cannot import: SQLite copies bound bytes before returning.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY` and `SQLITE_CONSTRAINT_UNIQUE`, macros Swift cannot import.
    private static let primaryKeyViolation = SQLITE_CONSTRAINT | (6 << 8)
    private static let uniqueViolation = SQLITE_CONSTRAINT | (8 << 8)
    private let handle: OpaquePointer
    /// Prepared single statements by SQL text, reused (reset and rebound) instead of being prepared
    /// again on every call, each with the column index of its last result. Bounded; dropped wholesale
    /// when full.
    private var statements: [String: CachedStatement] = [:]
    private static let maximumCachedStatements = 128
    /// Where statements that scanned a table or sorted are reported (nil: not watched).
    private let scanLog: StatementScanLog?

    /// Opens (and creates if needed) the database at `path` and applies the per-connection settings.
    init(path: String, busyTimeoutMilliseconds: Int32, readOnly: Bool, scanLog: StatementScanLog? = nil) throws {
        self.scanLog = scanLog
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StoreError(.connectionFailed, "cannot open the SQLite database: \(message)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        // `busy_timeout`, with a retry every millisecond: SQLite's own handler sleeps 1, 2, 5, 10, … up
        // to 100 ms between tries, so a writer that just missed another process's commit (an fsync of
        // a few milliseconds) waited tens of milliseconds more. The context is the limit itself.
        sqlite3_busy_handler(
            handle,
            { limit, attempts in
                guard attempts < Int32(truncatingIfNeeded: Int(bitPattern: limit)) else { return 0 }
                usleep(1000)
                return 1
            }, UnsafeMutableRawPointer(bitPattern: Int(max(1, busyTimeoutMilliseconds))))
        do {
            try execute("PRAGMA foreign_keys = ON", [])
            // No memory-mapped I/O: a reader whose snapshot is out of date unmaps the whole file on its
            // next read transaction, and under a steady stream of commits the munmap calls, the TLB
            // shootdowns they cause on every core and the page faults afterwards cost more than
            // reading the few pages a request needs with pread (measured with perf on session creation).
            _ = try query("PRAGMA mmap_size = 0", [])
            if readOnly { try execute("PRAGMA query_only = ON", []) }
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    /// Whether a transaction is open (SQLite ends one by itself after some errors).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func prepareForReuse() -> Bool {
        if sqlite3_get_autocommit(handle) == 0 { _ = try? execute("ROLLBACK", []) }
        return sqlite3_get_autocommit(handle) != 0
    }

    func close() {
        for cached in statements.values { sqlite3_finalize(cached.statement) }
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        try run(sql, parameters).changes
    }

    func query(_ sql: String, _ parameters: [SQLValue]) throws -> [Row] {
        try run(sql, parameters).rows
    }

    /// Runs the statements one after the other (SQLite is in this process: there is no round trip to save).
    func run(_ statements: [SQLStatement]) throws -> [SQLOutcome] {
        try statements.map { statement in
            let (rows, changes) = try run(statement.sql, statement.parameters)
            return SQLOutcome(rows: rows, changes: changes)
        }
    }

    /// Runs `sql`: a cached prepared statement when it is one already seen, otherwise every statement
    /// in the text, binding `parameters` to their placeholders in order.
    private func run(_ sql: String, _ parameters: [SQLValue]) throws -> (rows: [Row], changes: Int) {
        try SQLValue.checkBindable(parameters)
        if let cached = try cachedStatement(sql) {
            return try runCached(cached, sql, parameters)
        }
        return try runScript(sql, parameters)
    }

    /// The prepared statement of `sql`, kept for reuse; `nil` when `sql` is a script of several.
    private func cachedStatement(_ sql: String) throws -> CachedStatement? {
        if let cached = statements[sql] { return cached }
        guard let statement = try prepareSingle(sql) else { return nil }
        if statements.count >= Self.maximumCachedStatements {
            for cached in statements.values { sqlite3_finalize(cached.statement) }
            statements.removeAll()
        }
        let cached = CachedStatement(statement)
        statements[sql] = cached
        return cached
    }

    /// Steps `SELECT 1` and checks its one value: the connection answers a statement. Builds no rows
    /// (a health probe runs this on every request).
    func ping() throws {
        let sql = "SELECT 1"
        guard let statement = try cachedStatement(sql)?.statement else {
            throw StoreError(.queryFailed, "SELECT 1 did not prepare as one statement")
        }
        sqlite3_reset(statement)
        defer { sqlite3_reset(statement) }
        let status = sqlite3_step(statement)
        guard status == SQLITE_ROW else { throw error(status, sql) }
        guard sqlite3_column_int64(statement, 0) == 1 else {
            throw StoreError(.queryFailed, "SELECT 1 answered another value")
        }
    }

    /// The prepared statement when `sql` holds exactly one statement; `nil` for scripts.
    private func prepareSingle(_ sql: String) throws -> OpaquePointer? {
        try sql.withCString { start -> OpaquePointer? in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v3(handle, start, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            guard status == SQLITE_OK else { throw error(status, sql) }
            guard let statement else { return nil }
            var rest = tail
            while let cursor = rest, cursor.pointee != 0,
                isspace(Int32(UInt8(bitPattern: cursor.pointee))) != 0 || cursor.pointee == 59
            {
                rest = cursor + 1
            }
            guard let cursor = rest, cursor.pointee != 0 else { return statement }
            sqlite3_finalize(statement)
            return nil
        }
    }

    private func runCached(_ cached: CachedStatement, _ sql: String, _ parameters: [SQLValue]) throws
        -> (rows: [Row], changes: Int)
    {
        let statement = cached.statement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        // Reset again when done so the statement holds no read transaction while it sits in the cache.
        defer { sqlite3_reset(statement) }
        let count = Int(sqlite3_bind_parameter_count(statement))
        guard count == parameters.count else {
            throw StoreError(
                .queryFailed,
                "the SQL has \(count) placeholders but \(parameters.count) parameters were given: \(sql)")
        }
        for offset in 0..<count {
            try bind(parameters[offset], at: Int32(offset + 1), statement, sql)
        }
        let totalBefore = sqlite3_total_changes64(handle)
        let rows = try step(statement, sql, columns: &cached.columns)
        let changes = sqlite3_total_changes64(handle) != totalBefore ? Int(sqlite3_changes64(handle)) : 0
        if let scanLog {
            // Read and reset SQLite's own counters of this run.
            let fullScanSteps = sqlite3_stmt_status(statement, Int32(SQLITE_STMTSTATUS_FULLSCAN_STEP), 1)
            let sorts = sqlite3_stmt_status(statement, Int32(SQLITE_STMTSTATUS_SORT), 1)
            if fullScanSteps > 0 || sorts > 0 {
                scanLog.record(sql: sql, fullScanSteps: Int(fullScanSteps), sorts: Int(sorts))
            }
        }
        return (rows, changes)
    }

    /// Prepares and steps every statement of a script (migrations), finalizing each.
    private func runScript(_ sql: String, _ parameters: [SQLValue]) throws -> (rows: [Row], changes: Int) {
        var rows: [Row] = []
        var changes = 0
        var nextParameter = 0
        try sql.withCString { start in
            var remaining: UnsafePointer<CChar>? = start
            while let cursor = remaining, cursor.pointee != 0 {
                var statement: OpaquePointer?
                let status = sqlite3_prepare_v2(handle, cursor, -1, &statement, &remaining)
                guard status == SQLITE_OK else { throw error(status, sql) }
                guard let statement else { continue }
                defer { sqlite3_finalize(statement) }
                let count = Int(sqlite3_bind_parameter_count(statement))
                guard nextParameter + count <= parameters.count else {
                    throw StoreError(
                        .queryFailed, "the SQL needs more than \(parameters.count) parameters: \(sql)")
                }
                for offset in 0..<count {
                    try bind(parameters[nextParameter + offset], at: Int32(offset + 1), statement, sql)
                }
                nextParameter += count
                let totalBefore = sqlite3_total_changes64(handle)
                var columns: ColumnIndex?
                let produced = try step(statement, sql, columns: &columns)
                rows += produced
                if sqlite3_total_changes64(handle) != totalBefore {
                    changes += Int(sqlite3_changes64(handle))
                }
            }
        }
        guard nextParameter == parameters.count else {
            throw StoreError(
                .queryFailed,
                "the SQL has \(nextParameter) placeholders but \(parameters.count) parameters were given: \(sql)")
        }
        return (rows, changes)
    }

    private func bind(
        _ value: SQLValue, at index: Int32, _ statement: OpaquePointer, _ sql: String
    ) throws {
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(statement, index)
        case .integer(let number):
            status = sqlite3_bind_int64(statement, index, number)
        case .text(let text):
            // `withCString` lends a native string's own bytes (a short one is copied to the stack); the
            // string passed as a pointer argument was copied to the heap first.
            status = text.withCString {
                sqlite3_bind_text64(statement, index, $0, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                status = sqlite3_bind_zeroblob(statement, index, 0)
            } else {
                status = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(
                        statement, index, buffer.baseAddress, UInt64(buffer.count), Self.transient)
                }
            }
        }
        guard status == SQLITE_OK else { throw error(status, sql) }
    }

    /// Steps `statement` to the end. `columns` is the index a previous run of it built: reused while
    /// the statement's columns are still the same names (SQLite re-prepares a statement by itself after
    /// a schema change, and `SELECT *` may then name other columns), rebuilt otherwise.
    private func step(_ statement: OpaquePointer, _ sql: String, columns: inout ColumnIndex?) throws -> [Row] {
        // Counted after the first step: stepping is where SQLite re-prepares a statement the schema outdated.
        var columnCount: Int32 = -1
        var rows: [Row] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error(status, sql) }
            if columnCount < 0 {
                columnCount = sqlite3_column_count(statement)
                if let known = columns, !Self.names(of: statement, count: columnCount, match: known) {
                    columns = nil
                }
                if columns == nil {
                    columns = ColumnIndex(
                        names: (0..<columnCount).map { String(cString: sqlite3_column_name(statement, $0)) })
                }
            }
            let values = (0..<columnCount).map { column(statement, $0) }
            rows.append(Row(index: columns!, values: values))
        }
    }

    /// Whether the statement's `count` column names are `index`'s, compared without making strings.
    private static func names(of statement: OpaquePointer, count: Int32, match index: ColumnIndex) -> Bool {
        guard index.names.count == Int(count) else { return false }
        for (position, name) in index.names.enumerated() {
            guard let cName = sqlite3_column_name(statement, Int32(position)) else { return false }
            var name = name
            let equal = name.withUTF8 { bytes in
                guard strlen(cName) == bytes.count else { return false }
                guard let start = bytes.baseAddress else { return true }  // both empty
                return memcmp(cName, start, bytes.count) == 0
            }
            guard equal else { return false }
        }
        return true
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_BLOB:
            // Pointer first, then length, as SQLite documents; an empty blob has a null pointer.
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            // TEXT, and REAL rendered as text: the store has no floating-point values.
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }

    private func error(_ status: Int32, _ sql: String) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        let code: StoreError.Code
        switch status {
        case Self.uniqueViolation, Self.primaryKeyViolation: code = .constraintViolation
        case _ where status & 0xFF == SQLITE_BUSY || status & 0xFF == SQLITE_LOCKED: code = .busy
        default: code = .queryFailed
        }
        return StoreError(code, "\(message) in: \(sql)")
    }
}

/// A prepared statement kept for reuse, and the column index of its last result.
private final class CachedStatement {
    let statement: OpaquePointer
    var columns: ColumnIndex?

    init(_ statement: OpaquePointer) { self.statement = statement }
}

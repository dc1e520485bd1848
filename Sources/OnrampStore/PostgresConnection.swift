import CPostgres
import Foundation

/// One libpq connection.
///
/// `@unchecked Sendable` is sound because a ``ConnectionPool`` lends the connection to one thread at
/// a time, and libpq allows a `PGconn` to move between threads as long as no two use it at once.
final class PostgresConnection: PooledConnection, SQLConnection, @unchecked Sendable {
    var dialect: SQLDialect { .postgres }
    private static let int2: Oid = 21
    private static let int4: Oid = 23
    private static let int8: Oid = 20
    private static let bool: Oid = 16
    private static let bytea: Oid = 17

    /// Statements with parameters are prepared on the server once per connection (named, by SQL and
    /// parameter types), so PostgreSQL parses and plans each once; past this many the rest run unnamed.
    /// Named statements live in the server session: a transaction-mode pooler (PgBouncer) needs session
    /// pooling in front of this driver.
    private static let maximumPreparedStatements = 256
    /// How many statement texts a connection keeps rewritten (past this many the rest are rewritten
    /// each time they run).
    private static let maximumStatementTexts = 1024

    private let handle: OpaquePointer
    private var isBroken = false
    /// Each statement text this connection ran, by the SQL the store wrote (with `?` placeholders),
    /// rewritten once, with the server-side statements prepared of it.
    private var statementTexts: [String: StatementText] = [:]
    private var preparedStatementCount = 0
    private var preparedStatementsCreated = 0
    /// Set when the cache was dropped inside a transaction: the server-side statements are deallocated
    /// once the connection is idle again.
    private var needsDeallocation = false
    /// The `BEGIN` of the transaction being opened, not yet sent: it travels in one pipeline with the
    /// transaction's first statement (see ``withDeferredBegin(_:committingWithoutWaiting:_:)``).
    private var deferredBegin: String?
    /// A read-only transaction's `COMMIT` is on its way and its answer not yet read: the connection's
    /// next command reads it first.
    private var commitInFlight = false

    /// Connects with a libpq URI or `key=value` string; times out after `connectTimeoutSeconds` unless
    /// `conninfo` sets `connect_timeout` itself.
    init(conninfo: String, connectTimeoutSeconds: Int) throws {
        // Earlier keywords are defaults: the expanded `dbname` (the whole conninfo) overrides them.
        let keywords = ["connect_timeout", "fallback_application_name", "client_encoding", "dbname"]
        let values = [String(connectTimeoutSeconds), "onramp", "UTF8", conninfo]
        let connection = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw StoreError(.connectionFailed, "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw StoreError(.connectionFailed, "cannot connect to PostgreSQL: \(message)")
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    /// The connection's socket, for `poll(2)`; -1 when the connection is down.
    var socket: Int32 { PQsocket(handle) }

    /// Reads what the server sent and drops the notifications it holds (a listener only needs to
    /// know that one came). A connection that broke is reset once and `onReconnect` runs on it (to
    /// `LISTEN` again); false when it stays down.
    func consumeNotifications(onReconnect: (PostgresConnection) throws -> Void) -> Bool {
        if PQconsumeInput(handle) == 0 || PQstatus(handle) != CONNECTION_OK {
            PQreset(handle)
            guard PQstatus(handle) == CONNECTION_OK, (try? onReconnect(self)) != nil else { return false }
        }
        while let notification = PQnotifies(handle) { PQfreemem(notification) }
        return true
    }

    func prepareForReuse() -> Bool {
        deferredBegin = nil
        // A read's COMMIT in flight is answered by the time the connection is next lent; its next user
        // reads the answer (and finds the connection broken, if it is).
        if commitInFlight { return !isBroken }
        guard !isBroken && PQstatus(handle) == CONNECTION_OK else { return false }
        if PQtransactionStatus(handle) != PQTRANS_IDLE { _ = try? execute("ROLLBACK", []) }
        if needsDeallocation { deallocatePreparedStatements() }
        return !isBroken && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Forgets every prepared statement, on the server too.
    private func deallocatePreparedStatements() {
        forgetPreparedStatements()
        needsDeallocation = false
        _ = try? execute("DEALLOCATE ALL", [])
    }

    func close() {
        PQfinish(handle)
    }

    /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws, with the `BEGIN` sent in
    /// one libpq pipeline with the first statement that has parameters: a round trip fewer per
    /// transaction (a read was `BEGIN`, its statements and `COMMIT`, each waited for in turn). A body
    /// that runs no statement opens no transaction at all. With `committingWithoutWaiting` (a read-only
    /// transaction, whose result no longer depends on its end) the `COMMIT` is sent and its answer read
    /// before the connection's next command, another round trip fewer; a write always waits for it.
    func withDeferredBegin<T>(
        _ begin: String, committingWithoutWaiting: Bool = false, _ body: (any SQLConnection) throws -> T
    ) throws -> T {
        try finishCommitInFlight()
        deferredBegin = begin
        do {
            let result = try body(self)
            if deferredBegin != nil {
                deferredBegin = nil
                return result
            }
            if committingWithoutWaiting {
                try sendCommitWithoutWaiting()
            } else {
                try execute("COMMIT", [])
            }
            return result
        } catch {
            if deferredBegin != nil {
                deferredBegin = nil
            } else {
                _ = try? execute("ROLLBACK", [])
            }
            throw error
        }
    }

    /// Sends `COMMIT` without reading its answer (see ``finishCommitInFlight()``).
    private func sendCommitWithoutWaiting() throws {
        guard PQsendQuery(handle, "COMMIT") == 1 else {
            isBroken = true
            throw StoreError(.connectionFailed, "\(Self.trimmed(PQerrorMessage(handle))) in: COMMIT")
        }
        commitInFlight = true
    }

    /// Reads the answer of a `COMMIT` sent without waiting; a failure marks the connection broken.
    private func finishCommitInFlight() throws {
        guard commitInFlight else { return }
        commitInFlight = false
        var failure: String?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK { failure = Self.trimmed(PQresultErrorMessage(result)) }
            PQclear(result)
        }
        if failure != nil || PQstatus(handle) != CONNECTION_OK {
            isBroken = true
            throw StoreError(
                .connectionFailed, "a read's COMMIT failed: \(failure ?? Self.trimmed(PQerrorMessage(handle)))")
        }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        let (result, _) = try run(sql, parameters)
        defer { PQclear(result) }
        return changes(of: result)
    }

    func query(_ sql: String, _ parameters: [SQLValue]) throws -> [Row] {
        let (result, prepared) = try run(sql, parameters)
        defer { PQclear(result) }
        return rows(of: result, shapeKeptIn: prepared)
    }

    /// The rows a statement inserted, updated or deleted (a `SELECT`'s tag counts the rows it read: 0,
    /// as on SQLite).
    private func changes(of result: OpaquePointer) -> Int {
        guard let tag = PQcmdStatus(result), strncmp(tag, "SELECT ", 7) != 0 else { return 0 }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The rows of `result`. The columns' names and types are read once per prepared statement and
    /// kept with it (a schema change that alters them outdates the statement on the server first).
    private func rows(of result: OpaquePointer, shapeKeptIn prepared: PreparedStatement?) -> [Row] {
        let columnCount = PQnfields(result)
        let shape: ResultShape
        if let kept = prepared?.shape, kept.types.count == Int(columnCount) {
            shape = kept
        } else {
            shape = ResultShape(
                index: ColumnIndex(names: (0..<columnCount).map { String(cString: PQfname(result, $0)) }),
                types: (0..<columnCount).map { PQftype(result, $0) })
            prepared?.shape = shape
        }
        return (0..<PQntuples(result)).map { row in
            Row(index: shape.index, values: (0..<columnCount).map { value(result, row, $0, shape.types[Int($0)]) })
        }
    }

    /// Sends `sql` with text parameters (blobs in binary) and returns the successful result, with the
    /// prepared statement that answered when there is one. A prepared statement outdated by a schema
    /// change, or gone, is prepared afresh and, outside a transaction, the statement is run again once.
    private func run(_ sql: String, _ parameters: [SQLValue], retrying: Bool = true) throws
        -> (result: OpaquePointer, prepared: PreparedStatement?)
    {
        try SQLValue.checkBindable(parameters)
        try finishCommitInFlight()
        if let begin = deferredBegin, parameters.isEmpty {
            // A statement of the simple protocol (a script) cannot join a pipeline: begin first.
            deferredBegin = nil
            try execute(begin, [])
        }
        let result: OpaquePointer?
        var prepared: PreparedStatement?
        if parameters.isEmpty {
            // The simple protocol, so that migration scripts may hold several statements.
            result = PQexec(handle, sql)
        } else {
            (result, prepared) = send(try statementText(sql, parameterCount: parameters.count), Self.bind(parameters))
        }
        guard let result else {
            isBroken = true
            throw StoreError(.connectionFailed, "\(Self.trimmed(PQerrorMessage(handle))) in: \(sql)")
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return (result, prepared)
        default:
            if isStalePreparedStatement(result) {
                if PQtransactionStatus(handle) == PQTRANS_IDLE {
                    deallocatePreparedStatements()
                    if retrying {
                        PQclear(result)
                        return try run(sql, parameters, retrying: false)
                    }
                } else {
                    forgetPreparedStatements()
                    needsDeallocation = true
                    PQclear(result)
                    throw StoreError(
                        .statementOutdated, "a schema change outdated a prepared statement in this transaction: \(sql)")
                }
            }
            let error = self.error(result, sql)
            PQclear(result)
            throw error
        }
    }

    /// `sql` rewritten for PostgreSQL, once per connection while there is room to keep it.
    private func statementText(_ sql: String, parameterCount: Int) throws -> StatementText {
        let text: StatementText
        if let kept = statementTexts[sql] {
            text = kept
        } else {
            let (rewritten, count) = PostgresPlaceholders.rewrite(sql)
            text = StatementText(sql: rewritten, placeholderCount: count)
            if statementTexts.count < Self.maximumStatementTexts { statementTexts[sql] = text }
        }
        guard text.placeholderCount == parameterCount else {
            throw StoreError(
                .queryFailed,
                "the SQL has \(text.placeholderCount) placeholders but \(parameterCount) parameters were given: \(sql)")
        }
        return text
    }

    /// Forgets every statement prepared on this connection (not on the server).
    private func forgetPreparedStatements() {
        for text in statementTexts.values { text.statements.removeAll() }
        preparedStatementCount = 0
    }

    private func send(_ text: StatementText, _ bound: BoundParameters) -> (OpaquePointer?, PreparedStatement?) {
        if let begin = deferredBegin {
            deferredBegin = nil
            return sendAfter(begin: begin, text, bound)
        }
        var prepared = text.statement(for: bound.types)
        if prepared == nil && preparedStatementCount < Self.maximumPreparedStatements {
            let statement = PreparedStatement(name: nextStatementName(), types: bound.types)
            guard let result = PQprepare(handle, statement.name, text.sql, Int32(bound.types.count), bound.types)
            else { return (nil, nil) }
            // A failed PREPARE (bad SQL, an aborted transaction) is answered like a failed query.
            guard PQresultStatus(result) == PGRES_COMMAND_OK else { return (result, nil) }
            PQclear(result)
            text.statements.append(statement)
            preparedStatementCount += 1
            prepared = statement
        }
        let result = bound.withValuePointers { values in
            if let prepared {
                return PQexecPrepared(
                    handle, prepared.name, Int32(bound.lengths.count), values, bound.lengths, bound.formats, 0)
            }
            return PQexecParams(
                handle, text.sql, Int32(bound.lengths.count), bound.types, values, bound.lengths, bound.formats, 0)
        }
        return (result, prepared)
    }

    /// Sends `begin`, the statement's `PREPARE` when it is new, and the statement in one pipeline, and
    /// returns the statement's result: the `BEGIN`'s or the `PREPARE`'s own failure when one failed
    /// (what follows a failure in a pipeline is only reported aborted). Nil when the connection failed.
    private func sendAfter(begin: String, _ text: StatementText, _ bound: BoundParameters)
        -> (OpaquePointer?, PreparedStatement?)
    {
        guard let results = pipeline(begin: begin, [PlannedStatement(text: text, bound: bound)]) else {
            return (nil, nil)
        }
        let answer = results.firstIndex { !Self.succeeded($0.result) } ?? results.count - 1
        for (index, entry) in results.enumerated() where index != answer { PQclear(entry.result) }
        return (results[answer].result, results[answer].command.prepared)
    }

    /// Runs the statements in one pipeline, after the transaction's deferred `BEGIN` when there is one.
    func run(_ statements: [SQLStatement]) throws -> [SQLOutcome] {
        guard !statements.isEmpty else { return [] }
        try finishCommitInFlight()
        let begin = deferredBegin
        deferredBegin = nil
        return try run(statements, begin: begin, commit: false)
    }

    /// Runs the statements as a transaction of their own, `begin` and `COMMIT` in the same pipeline.
    /// A failure leaves the transaction aborted: the connection rolls it back before it is lent again.
    func runAlone(_ statements: [SQLStatement], begin: String) throws -> [SQLOutcome] {
        guard !statements.isEmpty else { return [] }
        try finishCommitInFlight()
        return try run(statements, begin: begin, commit: true)
    }

    private func run(_ statements: [SQLStatement], begin: String?, commit: Bool) throws -> [SQLOutcome] {
        var planned: [PlannedStatement] = []
        planned.reserveCapacity(statements.count)
        for statement in statements {
            try SQLValue.checkBindable(statement.parameters)
            planned.append(
                PlannedStatement(
                    text: try statementText(statement.sql, parameterCount: statement.parameters.count),
                    bound: Self.bind(statement.parameters)))
        }
        guard let results = pipeline(begin: begin, planned, commit: commit) else {
            throw StoreError(
                .connectionFailed, "\(Self.trimmed(PQerrorMessage(handle))) in: \(statements.first?.sql ?? "a batch")")
        }
        defer { results.forEach { PQclear($0.result) } }
        if let failure = results.first(where: { !Self.succeeded($0.result) }) {
            let sql =
                failure.command.statement.map { statements[$0].sql }
                ?? (failure.command.isCommit ? "COMMIT" : begin ?? "BEGIN")
            if isStalePreparedStatement(failure.result) {
                // Inside a transaction (a batch always is one, its own at least): dropped once idle again.
                forgetPreparedStatements()
                needsDeallocation = true
                throw StoreError(
                    .statementOutdated, "a schema change outdated a prepared statement in this transaction: \(sql)")
            }
            throw error(failure.result, sql)
        }
        return results.compactMap { entry in
            guard entry.command.isAnswer else { return nil }
            return SQLOutcome(
                rows: rows(of: entry.result, shapeKeptIn: entry.command.prepared), changes: changes(of: entry.result))
        }
    }

    /// A statement's SQL rewritten for PostgreSQL (`$n` placeholders), with the statements this
    /// connection prepared of it on the server: one per list of parameter types it ran with.
    private final class StatementText {
        let sql: String
        let placeholderCount: Int
        var statements: [PreparedStatement] = []

        init(sql: String, placeholderCount: Int) {
            self.sql = sql
            self.placeholderCount = placeholderCount
        }

        /// The statement prepared for parameters of `types`, if there is one.
        func statement(for types: [Oid]) -> PreparedStatement? {
            statements.first { $0.types == types }
        }
    }

    /// A statement prepared on the server as `name` for parameters of `types`, and the shape of its
    /// results once one was read.
    private final class PreparedStatement {
        let name: String
        let types: [Oid]
        var shape: ResultShape?

        init(name: String, types: [Oid]) {
            self.name = name
            self.types = types
        }
    }

    /// The columns of a statement's results: their names and types.
    private struct ResultShape {
        let index: ColumnIndex
        let types: [Oid]
    }

    /// A statement ready to send: its text and its parameters.
    private struct PlannedStatement {
        let text: StatementText
        let bound: BoundParameters
    }

    /// A command sent in a pipeline: `BEGIN` or `COMMIT` (no statement), or a statement's `PREPARE` or
    /// the statement itself (`isAnswer`, with the prepared statement it ran as, if any).
    private struct PipelineCommand {
        let statement: Int?
        let isAnswer: Bool
        let prepared: PreparedStatement?
        var isCommit = false
    }

    /// One result of a pipeline, with the command it answers.
    private struct PipelineResult {
        let result: OpaquePointer
        let command: PipelineCommand
    }

    /// Sends `begin` (when given), then for each statement its `PREPARE` when it is new and the statement
    /// itself, then `COMMIT` when asked, with one sync point, and returns every result in order. Nil
    /// when the connection failed (it is then marked broken).
    private func pipeline(begin: String?, _ statements: [PlannedStatement], commit: Bool = false)
        -> [PipelineResult]?
    {
        guard PQenterPipelineMode(handle) == 1 else { return nil }
        var sent = true
        var commands: [PipelineCommand] = []
        commands.reserveCapacity(statements.count * 2 + 1)
        if let begin {
            sent = PQsendQueryParams(handle, begin, 0, nil, nil, nil, nil, 0) == 1
            commands.append(PipelineCommand(statement: nil, isAnswer: false, prepared: nil))
        }
        // Statements prepared by this pipeline: kept once all of it succeeded.
        var preparedHere: [(text: StatementText, statement: PreparedStatement)] = []
        for (index, planned) in statements.enumerated() where sent {
            let bound = planned.bound
            var prepared =
                planned.text.statement(for: bound.types)
                ?? preparedHere.first { $0.text === planned.text && $0.statement.types == bound.types }?.statement
            if prepared == nil && preparedStatementCount + preparedHere.count < Self.maximumPreparedStatements {
                let statement = PreparedStatement(name: nextStatementName(), types: bound.types)
                sent =
                    PQsendPrepare(handle, statement.name, planned.text.sql, Int32(bound.types.count), bound.types) == 1
                commands.append(PipelineCommand(statement: index, isAnswer: false, prepared: nil))
                preparedHere.append((planned.text, statement))
                prepared = statement
            }
            let name = prepared?.name
            sent =
                sent
                && bound.withValuePointers { values in
                    if let name {
                        return PQsendQueryPrepared(
                            handle, name, Int32(bound.lengths.count), values, bound.lengths, bound.formats, 0)
                    }
                    return PQsendQueryParams(
                        handle, planned.text.sql, Int32(bound.lengths.count), bound.types, values, bound.lengths,
                        bound.formats, 0)
                } == 1
            commands.append(PipelineCommand(statement: index, isAnswer: true, prepared: prepared))
        }
        if commit && sent {
            sent = PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1
            commands.append(PipelineCommand(statement: nil, isAnswer: false, prepared: nil, isCommit: true))
        }
        sent = sent && PQpipelineSync(handle) == 1
        // One result per command sent, each followed by a null, then the sync point.
        var results: [PipelineResult] = []
        results.reserveCapacity(commands.count)
        var broken = !sent
        for command in commands where !broken {
            guard let result = PQgetResult(handle) else {
                broken = true
                break
            }
            results.append(PipelineResult(result: result, command: command))
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        if !broken, let sync = PQgetResult(handle) {
            broken = PQresultStatus(sync) != PGRES_PIPELINE_SYNC
            PQclear(sync)
        } else {
            broken = true
        }
        if broken || PQexitPipelineMode(handle) != 1 {
            results.forEach { PQclear($0.result) }
            isBroken = true
            return nil
        }
        // New statements are kept only when nothing failed (a failure's transaction is rolled back).
        if results.allSatisfy({ Self.succeeded($0.result) }) {
            for (text, statement) in preparedHere { text.statements.append(statement) }
            preparedStatementCount += preparedHere.count
        }
        return results
    }

    private static func succeeded(_ result: OpaquePointer) -> Bool {
        let status = PQresultStatus(result)
        return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
    }

    private func nextStatementName() -> String {
        preparedStatementsCreated += 1
        return "onramp_\(preparedStatementsCreated)"
    }

    /// A statement's parameters as libpq takes them: text (blobs in binary), with their types, all
    /// values in one buffer.
    private struct BoundParameters {
        var types: [Oid] = []
        var formats: [Int32] = []
        var lengths: [Int32] = []
        /// Where each value starts in `storage`; nil for NULL.
        var offsets: [Int?] = []
        /// The values one after another, text NUL-terminated.
        var storage: [CChar] = []

        /// Calls `body` with a pointer to each value (nil for NULL), valid for the duration of the call.
        func withValuePointers<T>(_ body: ([UnsafePointer<CChar>?]) -> T) -> T {
            storage.withUnsafeBufferPointer { buffer in
                body(offsets.map { offset in offset.map { buffer.baseAddress! + $0 } })
            }
        }
    }

    private static func bind(_ parameters: [SQLValue]) -> BoundParameters {
        var bound = BoundParameters()
        bound.types.reserveCapacity(parameters.count)
        bound.formats.reserveCapacity(parameters.count)
        bound.lengths.reserveCapacity(parameters.count)
        bound.offsets.reserveCapacity(parameters.count)
        bound.storage.reserveCapacity(parameters.count * 24)
        func appendText(_ text: String) {
            bound.offsets.append(bound.storage.count)
            for byte in text.utf8 { bound.storage.append(CChar(bitPattern: byte)) }
            bound.storage.append(0)
            bound.formats.append(0)
            bound.lengths.append(0)
        }
        for parameter in parameters {
            switch parameter {
            case .null:
                bound.types.append(0)
                bound.offsets.append(nil)
                bound.formats.append(0)
                bound.lengths.append(0)
            case .integer(let number):
                bound.types.append(Self.int8)
                appendText(String(number))
            case .text(let text):
                bound.types.append(0)
                appendText(text)
            case .blob(let bytes) where bytes.isEmpty:
                // A zero-length binary value would need a non-null pointer; the hex text form is simpler.
                bound.types.append(Self.bytea)
                appendText("\\x")
            case .blob(let bytes):
                bound.types.append(Self.bytea)
                bound.offsets.append(bound.storage.count)
                for byte in bytes { bound.storage.append(CChar(bitPattern: byte)) }
                bound.formats.append(1)
                bound.lengths.append(Int32(bytes.count))
            }
        }
        return bound
    }

    private func value(_ result: OpaquePointer, _ row: Int32, _ column: Int32, _ type: Oid) -> SQLValue {
        if PQgetisnull(result, row, column) != 0 { return .null }
        let text = PQgetvalue(result, row, column)!
        switch type {
        case Self.int2, Self.int4, Self.int8:
            let digits = String(cString: text)
            return Int64(digits).map(SQLValue.integer) ?? .text(digits)
        case Self.bool:
            return .integer(text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0)
        case Self.bytea:
            var count = 0
            guard let bytes = PQunescapeBytea(UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), &count)
            else { return .blob([]) }
            defer { PQfreemem(bytes) }
            return .blob(Array(UnsafeBufferPointer(start: bytes, count: count)))
        default:
            let count = Int(PQgetlength(result, row, column))
            return .text(
                String(
                    decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }

    private func error(_ result: OpaquePointer, _ sql: String) -> StoreError {
        let state = field(result, "C") ?? ""
        if PQstatus(handle) != CONNECTION_OK || state.hasPrefix("08") {
            isBroken = true
            return StoreError(.connectionFailed, "\(Self.trimmed(PQerrorMessage(handle))) in: \(sql)")
        }
        // Data exceptions (class 22) quote the offending input, which may be a parameter value.
        let message =
            state.hasPrefix("22")
            ? "a value does not fit its column type" : (field(result, "M") ?? "unknown error")
        let code: StoreError.Code
        switch state {
        case "23505": code = .constraintViolation
        case "40001", "40P01": code = .serializationFailure
        case "55P03": code = .busy
        default: code = .queryFailed
        }
        return StoreError(code, "\(message) (SQLSTATE \(state)) in: \(sql)")
    }

    /// A prepared statement gone (26000), or outdated by a schema change (0A000 "cached plan must not
    /// change result type").
    private func isStalePreparedStatement(_ result: OpaquePointer) -> Bool {
        switch field(result, "C") {
        case "26000": return true
        // Told apart from other 0A000 errors by the server routine that raises it (its message is localized).
        case "0A000": return field(result, "R") == "RevalidateCachedQuery"
        default: return false
        }
    }

    private func field(_ result: OpaquePointer, _ name: Unicode.Scalar) -> String? {
        PQresultErrorField(result, Int32(name.value)).map { String(cString: $0) }
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? "unknown error"
    }
}

/// Calls `body` with a C array of NUL-terminated copies of `strings`, itself terminated by `NULL`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let copies = strings.map { Array($0.utf8CString) }
    return withPointers(copies.map { Optional($0) }) { body($0 + [nil]) }
}

/// Calls `body` with pointers into each buffer (or `nil`), valid for the duration of the call.
private func withPointers<T>(_ buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    var pointers: [UnsafePointer<CChar>?] = []
    func step(_ index: Int) -> T {
        guard index < buffers.count else { return body(pointers) }
        guard let buffer = buffers[index] else {
            pointers.append(nil)
            return step(index + 1)
        }
        return buffer.withUnsafeBufferPointer { pointer in
            pointers.append(pointer.baseAddress)
            return step(index + 1)
        }
    }
    return step(0)
}

/// A connection lent to the body of ``Database/read(_:)`` or ``Database/transaction(_:)``.
///
/// Write SQL once with `?` placeholders and pass values as `parameters`; values are always bound,
/// never spliced into the SQL text. A connection must not escape the body it was lent to.
///
/// On PostgreSQL, integers are sent as `bigint`, blobs as `bytea`, and text and `NULL` untyped so
/// that the server infers their type from the context; an argument of a function that takes
/// `integer` therefore needs a cast, `CAST(? AS INTEGER)`, which SQLite accepts as well.
public protocol SQLConnection {
    /// The dialect of the database this connection belongs to (for the few statements that differ, such as
    /// PostgreSQL's row locks).
    var dialect: SQLDialect { get }
    /// Runs one or more statements and returns the number of rows they inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int
    /// Runs a statement and returns the rows it produced (for example from `SELECT` or `RETURNING`).
    func query(_ sql: String, _ parameters: [SQLValue]) throws -> [Row]
    /// Runs `statements` in order, each one statement with its parameters, and returns what each did;
    /// throws the first failure (the statements after it do not take effect: call it inside a transaction,
    /// which the failure rolls back). On PostgreSQL they travel in one round trip (a libpq pipeline), so
    /// statements whose inputs do not depend on each other's results cost one wait instead of several.
    func run(_ statements: [SQLStatement]) throws -> [SQLOutcome]
}

/// One statement and its parameters, for ``SQLConnection/run(_:)``.
public struct SQLStatement: Sendable {
    /// One statement with `?` placeholders.
    public let sql: String
    /// The values bound to the placeholders, in order.
    public let parameters: [SQLValue]

    /// Creates a statement.
    public init(_ sql: String, _ parameters: [SQLValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// What one statement of ``SQLConnection/run(_:)`` did.
public struct SQLOutcome: Sendable {
    /// The rows it produced.
    public let rows: [Row]
    /// The number of rows it inserted, updated or deleted.
    public let changes: Int
}

extension SQLConnection {
    /// Runs statements without parameters and returns the number of rows changed.
    @discardableResult
    public func execute(_ sql: String) throws -> Int {
        try execute(sql, [])
    }

    /// Runs a statement without parameters and returns its rows.
    public func query(_ sql: String) throws -> [Row] {
        try query(sql, [])
    }

    /// Runs `statement` and returns the number of rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ statement: SQLStatement) throws -> Int {
        try execute(statement.sql, statement.parameters)
    }

    /// Runs `statement` and returns its rows.
    public func query(_ statement: SQLStatement) throws -> [Row] {
        try query(statement.sql, statement.parameters)
    }
}

extension SQLConnection {
    /// Runs `body` between `begin` (`BEGIN` or `BEGIN IMMEDIATE`) and `COMMIT`, rolling back when it throws.
    func withTransaction<T>(begin: String, _ body: (any SQLConnection) throws -> T) throws -> T {
        try execute(begin, [])
        do {
            let result = try body(self)
            try execute("COMMIT", [])
            return result
        } catch {
            _ = try? execute("ROLLBACK", [])
            throw error
        }
    }
}

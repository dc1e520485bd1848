/// A connection lent to the body of ``Database/read(_:)`` or ``Database/transaction(_:)``.
///
/// Write SQL once with `?` placeholders and pass values as `parameters`; values are always bound,
/// never spliced into the SQL text. A connection must not escape the body it was lent to.
///
/// On PostgreSQL, integers are sent as `bigint`, blobs as `bytea`, and text and `NULL` untyped so
/// that the server infers their type from the context; an argument of a function that takes
/// `integer` therefore needs a cast, `CAST(? AS INTEGER)`, which SQLite accepts as well.
public protocol SQLConnection {
    /// Runs one or more statements and returns the number of rows they inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int
    /// Runs a statement and returns the rows it produced (for example from `SELECT` or `RETURNING`).
    func query(_ sql: String, _ parameters: [SQLValue]) throws -> [Row]
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

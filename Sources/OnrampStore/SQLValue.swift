/// A value bound to a statement parameter or read from a result column.
///
/// There is deliberately no floating-point case: amounts of money are stored as decimal `TEXT`.
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer (`BIGINT` on PostgreSQL, `INTEGER` on SQLite).
    case integer(Int64)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes (`BYTEA` on PostgreSQL, `BLOB` on SQLite).
    case blob([UInt8])
}

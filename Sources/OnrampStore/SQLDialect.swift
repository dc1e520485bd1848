/// The SQL dialect spoken by a ``Database``, for the rare statement that must differ.
public enum SQLDialect: Sendable {
    /// SQLite 3.
    case sqlite
    /// PostgreSQL.
    case postgres
}

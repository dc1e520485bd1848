/// One versioned schema change, applied at most once per database.
public struct Migration: Sendable {
    /// The version; migrations are applied in ascending order and recorded in `schema_migrations`.
    public let version: Int
    /// A short name, recorded with the version; a different name for an applied version is an error.
    public let name: String
    /// The SQL script for both dialects (several statements allowed, no parameters).
    public let sql: String
    /// A replacement script for PostgreSQL when the common one does not fit (for example `BYTEA`).
    public let postgresSQL: String?

    /// Creates a migration.
    public init(version: Int, name: String, sql: String, postgresSQL: String? = nil) {
        self.version = version
        self.name = name
        self.sql = sql
        self.postgresSQL = postgresSQL
    }

    /// The script to run for `dialect`.
    public func script(for dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sql
        case .postgres: postgresSQL ?? sql
        }
    }
}

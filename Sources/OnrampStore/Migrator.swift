import Foundation

/// Applies ``Migration``s through a ``Database``'s own transactions; shared by both drivers.
enum Migrator {
    /// An arbitrary constant naming the PostgreSQL advisory lock that serializes migrating instances.
    private static let postgresLockKey: Int64 = 0x4F_6E_72_61_6D_70

    static func migrate(_ migrations: [Migration], on database: some Database) throws {
        let ordered = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where previous.version == next.version {
            throw StoreError(.migrationFailed, "two migrations have version \(next.version)")
        }
        try database.transaction { connection in
            try lock(connection, dialect: database.dialect)
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                  version BIGINT PRIMARY KEY,
                  name TEXT NOT NULL,
                  applied_at TEXT NOT NULL
                )
                """)
        }
        for migration in ordered {
            try database.transaction { connection in
                try lock(connection, dialect: database.dialect)
                let applied = try connection.query(
                    "SELECT name FROM schema_migrations WHERE version = ?", [.integer(Int64(migration.version))])
                if let row = applied.first {
                    let name = try row.string("name")
                    guard name == migration.name else {
                        throw StoreError(
                            .migrationFailed,
                            "migration \(migration.version) is recorded as \"\(name)\", not \"\(migration.name)\"")
                    }
                    return
                }
                do {
                    try connection.execute(migration.script(for: database.dialect))
                } catch let error as StoreError {
                    throw StoreError(
                        .migrationFailed,
                        "migration \(migration.version) \"\(migration.name)\" failed: \(error.message)")
                }
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [
                        .integer(Int64(migration.version)), .text(migration.name),
                        .text(Date().ISO8601Format()),
                    ])
            }
        }
    }

    /// Serializes migrations across PostgreSQL clients; SQLite's `BEGIN IMMEDIATE` already does.
    private static func lock(_ connection: any SQLConnection, dialect: SQLDialect) throws {
        if dialect == .postgres {
            _ = try connection.query("SELECT pg_advisory_xact_lock(?)", [.integer(postgresLockKey)])
        }
    }
}

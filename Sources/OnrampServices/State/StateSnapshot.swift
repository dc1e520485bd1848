import Foundation
import OnrampCrypto
import OnrampStore
import OnrampWire

/// A saved sandbox: every row of every table of the server's schema, in a versioned JSON file, so a
/// developer can prepare projects, keys, customers and wallets once and start every run from them
/// (`onramp state export FILE`, `onramp serve --import FILE`, `--export-on-exit FILE`).
///
/// The file (format `onramp-state`, version 1):
/// ```json
/// {"format": "onramp-state", "version": 1, "schema": 410, "exportedAt": "2026-12-01T22:00:00Z",
///  "tables": {"projects": {"columns": ["id", "name", …], "rows": [["…", "Example Wallet", …]]}, …}}
/// ```
/// `schema` is the newest migration the database had; a snapshot restores only into a database at the
/// same schema. Values are JSON strings (TEXT), integers (BIGINT), `null`, or `{"base64": …}` (bytes).
/// Secrets stay as the database keeps them: API keys and page tokens hashed, KYC numbers and idempotency
/// records sealed (they open after a restore only under the same `ONRAMP_DATA_KEY`), and webhook signing
/// secrets as they are (the server signs with them), so the file is as sensitive as the database.
public enum StateSnapshot {
    /// The `format` member.
    public static let format = "onramp-state"
    /// The file format's version.
    public static let version = 1

    /// Why a snapshot cannot be restored.
    public struct RestoreError: Error, CustomStringConvertible {
        /// What is wrong with the file or the target.
        public let description: String
    }

    /// Tables a snapshot leaves out: the console's sign-ins, which belong to the running server and its
    /// operator token, not to the sandbox's state.
    package static let unsaved: Set<String> = ["console_sessions"]

    /// The schema's tables in the order they were created (parents before the rows that name them).
    package static var tables: [String] {
        var names: [String] = []
        for migration in Schema.migrations {
            for match in migration.sql.matches(of: /CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/) {
                let name = String(match.1)
                if !names.contains(name), !unsaved.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The newest migration's version.
    package static var schemaVersion: Int { Schema.migrations.map(\.version).max() ?? 0 }

    /// Every table of `database`, read in one snapshot transaction.
    public static func export(_ database: any Database, at date: Date = Date()) throws -> JSONValue {
        let tables = try database.read { connection in
            try Self.tables.map { table -> (String, JSONValue) in
                let rows = try connection.query("SELECT * FROM \(table)", [])
                let columns =
                    try rows.first?.columns ?? Self.columns(of: table, connection).map(\.name)
                return (
                    table,
                    [
                        "columns": .array(columns.map { .string($0) }),
                        "rows": .array(rows.map { .array($0.values.map(Self.json)) }),
                    ]
                )
            }
        }
        return [
            "format": .string(format), "version": .integer(version), "schema": .integer(schemaVersion),
            "exportedAt": .string(Timestamp.rfc3339(milliseconds: Timestamp.milliseconds(date))),
            "tables": .object(tables),
        ]
    }

    /// Writes every row of `snapshot` into `database`, which must be migrated and hold no project yet;
    /// in one transaction, so a refused file leaves the database as it was.
    public static func restore(_ snapshot: JSONValue, into database: any Database) throws {
        guard snapshot["format"]?.stringValue == format else {
            throw RestoreError(description: "not an onramp state file (format is not \"\(format)\")")
        }
        guard snapshot["version"] == .integer(version) else {
            throw RestoreError(
                description: "state file version \(snapshot["version"]?.serializedString ?? "none") is not \(version)")
        }
        guard snapshot["schema"] == .integer(schemaVersion) else {
            throw RestoreError(
                description:
                    "the file was exported at schema \(snapshot["schema"]?.serializedString ?? "none"); this server is at \(schemaVersion)"
            )
        }
        guard let tables = snapshot["tables"]?.objectValue else {
            throw RestoreError(description: "the file has no tables")
        }
        let known = Set(Self.tables)
        if let unknown = tables.first(where: { !known.contains($0.0) }) {
            throw RestoreError(description: "unknown table \(unknown.0)")
        }
        try database.transaction { connection in
            guard try connection.query("SELECT COUNT(*) AS n FROM projects", []).first?.int("n") == 0 else {
                throw RestoreError(description: "the database already holds projects: restore into a new one")
            }
            for table in Self.tables {
                guard let content = tables.first(where: { $0.0 == table })?.1 else { continue }
                let kinds = Dictionary(
                    uniqueKeysWithValues: try Self.columns(of: table, connection).map {
                        ($0.name, $0.kind)
                    })
                let columns = content["columns"]?.arrayValue?.compactMap(\.stringValue) ?? []
                guard !columns.isEmpty, Set(columns).count == columns.count,
                    columns.allSatisfy({ kinds[$0] != nil })
                else {
                    throw RestoreError(description: "table \(table) names columns this schema does not have")
                }
                let statement =
                    "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                for row in content["rows"]?.arrayValue ?? [] {
                    guard let values = row.arrayValue, values.count == columns.count else {
                        throw RestoreError(description: "a row of \(table) does not match its columns")
                    }
                    let checked = try zip(columns, values).map { column, json in
                        try Self.value(json, for: column, of: table, kind: kinds[column]!)
                    }
                    try connection.execute(statement, checked)
                }
            }
        }
    }

    /// What a column holds: every column of the schema is an integer or text.
    package enum ColumnKind: Equatable {
        case integer
        case text
    }

    /// Values the server computes with, bounded as the API bounds them so that no arithmetic on them can
    /// overflow: a test clock's offset (``TestClocks/maximumOffsetMilliseconds``).
    package static let ranges: [String: ClosedRange<Int64>] = [
        "test_clocks.offset_ms": 0...TestClocks.maximumOffsetMilliseconds
    ]

    /// `json` as a value of `column`: null, or the column's kind, within its range when it has one.
    private static func value(_ json: JSONValue, for column: String, of table: String, kind: ColumnKind) throws
        -> SQLValue
    {
        let value = try Self.value(json)
        switch (value, kind) {
        case (.null, _), (.text, .text):
            return value
        case (.integer(let number), .integer):
            if let range = ranges["\(table).\(column)"], !range.contains(number) {
                throw RestoreError(description: "\(table).\(column) \(number) is outside \(range)")
            }
            return value
        default:
            throw RestoreError(
                description:
                    "\(table).\(column) holds \(kind == .integer ? "integers" : "text"), not \(json.serializedString.prefix(40))"
            )
        }
    }

    /// The columns of `table` (a name from the schema, never input) in order, and what each holds, from the
    /// catalog.
    private static func columns(of table: String, _ connection: any SQLConnection) throws
        -> [(name: String, kind: ColumnKind)]
    {
        let rows: [Row]
        switch connection.dialect {
        case .sqlite:
            rows = try connection.query("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
        case .postgres:
            rows = try connection.query(
                """
                SELECT column_name AS name, data_type AS type FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                """, [.text(table)])
        }
        return try rows.map { row in
            (try row.string("name"), try row.string("type").uppercased().contains("INT") ? .integer : .text)
        }
    }

    private static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .text(let text): .string(text)
        case .blob(let bytes): ["base64": .string(Base64.encode(bytes))]
        }
    }

    private static func value(_ json: JSONValue) throws -> SQLValue {
        switch json {
        case .null: return .null
        case .string(let text): return .text(text)
        case .number(let text):
            guard let number = Int64(text) else { throw RestoreError(description: "\(text) is not an integer") }
            return .integer(number)
        case .object:
            guard let text = json["base64"]?.stringValue, let bytes = Base64.decode(text) else {
                throw RestoreError(description: "a bytes value is not {\"base64\": …}")
            }
            return .blob(bytes)
        default:
            throw RestoreError(description: "a value is neither text, an integer, null nor bytes")
        }
    }
}

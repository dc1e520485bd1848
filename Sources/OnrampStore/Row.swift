/// One result row: values addressed by column name.
public struct Row: Sendable {
    /// The column names of the result, in order.
    public let columns: [String]
    /// The values of the row, in column order.
    public let values: [SQLValue]
    private let index: ColumnIndex

    init(index: ColumnIndex, values: [SQLValue]) {
        self.columns = index.names
        self.values = values
        self.index = index
    }

    /// The value of `column`, or `.null` when the result has no such column.
    public subscript(_ column: String) -> SQLValue {
        guard let position = index.positions[column] else { return .null }
        return values[position]
    }

    /// The text in `column`; throws `typeMismatch` if it is missing, `NULL` or not text.
    public func string(_ column: String) throws -> String {
        guard case .text(let text) = try value(column) else { throw mismatch(column, "text") }
        return text
    }

    /// The text in `column`, or `nil` when it is missing, `NULL` or not text.
    public func optionalString(_ column: String) -> String? {
        guard case .text(let text) = self[column] else { return nil }
        return text
    }

    /// The integer in `column`; throws `typeMismatch` if it is missing, `NULL` or not an integer.
    ///
    /// Text holding a plain decimal integer is accepted too, because PostgreSQL returns `NUMERIC`
    /// results (such as `SUM` over `BIGINT`) as text where SQLite returns an integer.
    public func int(_ column: String) throws -> Int64 {
        switch try value(column) {
        case .integer(let number): return number
        case .text(let text):
            guard let number = Int64(text) else { throw mismatch(column, "integer") }
            return number
        default: throw mismatch(column, "integer")
        }
    }

    /// The integer in `column` (see ``int(_:)``), or `nil` when it is missing, `NULL` or not one.
    public func optionalInt(_ column: String) -> Int64? {
        // Not `try? int(column)`: a NULL would build the mismatch error's message only to drop it.
        switch self[column] {
        case .integer(let number): return number
        case .text(let text): return Int64(text)
        case .null, .blob: return nil
        }
    }

    /// The bytes in `column`; throws `typeMismatch` if it is missing, `NULL` or not a blob.
    public func blob(_ column: String) throws -> [UInt8] {
        guard case .blob(let bytes) = try value(column) else { throw mismatch(column, "blob") }
        return bytes
    }

    private func value(_ column: String) throws -> SQLValue {
        guard let position = index.positions[column] else {
            throw StoreError(.typeMismatch, "the result has no column \"\(column)\"")
        }
        return values[position]
    }

    private func mismatch(_ column: String, _ expected: String) -> StoreError {
        let found: String
        switch self[column] {
        case .null: found = "NULL"
        case .integer: found = "an integer"
        case .text: found = "text"
        case .blob: found = "a blob"
        }
        return StoreError(.typeMismatch, "column \"\(column)\" holds \(found), not \(expected)")
    }
}

/// Column names of one result and their positions, shared by all rows of that result.
final class ColumnIndex: Sendable {
    let names: [String]
    let positions: [String: Int]

    init(names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil {
            positions[name] = position
        }
        self.positions = positions
    }
}

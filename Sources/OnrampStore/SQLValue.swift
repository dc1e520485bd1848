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

extension SQLValue {
    /// Refuses text holding a NUL, for both drivers alike: PostgreSQL cannot store one and libpq would
    /// silently cut the text at it (`victim\0evil` stored as `victim`), while SQLite would keep it.
    static func checkBindable(_ parameters: [SQLValue]) throws(StoreError) {
        for case .text(let text) in parameters where hasNUL(text) {
            throw StoreError(.invalidText, "A text parameter contains a NUL character.")
        }
    }

    /// Whether `text` holds a NUL byte, scanned as one buffer (the generic walk of a `UTF8View` went
    /// through its iterator byte by byte: 0.7 % of the Embedded profile for stored session details).
    private static func hasNUL(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
    }
}

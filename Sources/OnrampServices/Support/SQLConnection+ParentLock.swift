import OnrampStore

extension SQLConnection {
    /// Locks the parent row `id` of `table` (a fixed name, never input) until the transaction ends, so
    /// transactions that count its children before adding one run one after another. Only PostgreSQL
    /// needs it (SQLite's single writer already serialises them); `FOR NO KEY UPDATE` leaves inserts
    /// that merely reference the row unblocked.
    package func lockParent(table: String, id: String) throws {
        guard dialect == .postgres else { return }
        _ = try query("SELECT id FROM \(table) WHERE id = ? FOR NO KEY UPDATE", [.text(id)])
    }
}

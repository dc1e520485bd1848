import OnrampCore
import OnrampStore

/// The settlement worker's reads and writes of `onramp_transactions`, over the caller's connection.
extension TransactionRecord {
    /// A transaction whose next step is due.
    package struct DueStep: Sendable {
        package let transactionId: String
        package let projectId: String
    }

    /// Up to `limit` transactions whose next step is due at `now` in their project's time and whose
    /// lease (in real time, `realNow`) is free, earliest first.
    package static func dueSteps(now: Int64, realNow: Int64, limit: Int, on connection: any SQLConnection) throws
        -> [DueStep]
    {
        try connection.query(
            """
            SELECT t.transaction_id, t.project_id FROM onramp_transactions t
            LEFT JOIN test_clocks c ON c.project_id = t.project_id
            WHERE \(TestClockRepository.due("t.next_step_at", clock: "c")) AND \(SettlementLease.isFree)
            ORDER BY t.next_step_at LIMIT ?
            """,
            [.integer(now), .integer(now), .integer(realNow), .integer(Int64(limit))]
        ).map { DueStep(transactionId: try $0.string("transaction_id"), projectId: try $0.string("project_id")) }
    }

    /// The project a transaction belongs to, `nil` when there is no such transaction.
    package static func projectId(of transactionId: String, on connection: any SQLConnection) throws -> String? {
        try connection.query(
            "SELECT project_id FROM onramp_transactions WHERE transaction_id = ?", [.text(transactionId)]
        ).first?.string("project_id")
    }

    /// A transaction's status, `nil` when there is no such transaction.
    package static func status(of transactionId: String, on connection: any SQLConnection) throws -> String? {
        try connection.query("SELECT status FROM onramp_transactions WHERE transaction_id = ?", [.text(transactionId)])
            .first?.string("status")
    }

    /// Makes a pending transaction's next step due at `now` and frees its lease (a settled one has no
    /// next step and is left alone).
    package static func makeNextStepDue(_ transactionId: String, at now: Int64, on connection: any SQLConnection) throws
    {
        try connection.execute(
            """
            UPDATE onramp_transactions SET next_step_at = ?, lease_until = NULL
            WHERE transaction_id = ? AND next_step_at IS NOT NULL AND status IN (?, ?)
            """,
            [
                .integer(now), .text(transactionId), .text(App2AppTransaction.Status.created.rawValue),
                .text(App2AppTransaction.Status.inProgress.rawValue),
            ])
    }

    /// The transaction, when its next step is due at `now`.
    package static func withDueStep(_ transactionId: String, at now: Int64, on connection: any SQLConnection) throws
        -> TransactionRecord?
    {
        try connection.query(
            "SELECT * FROM onramp_transactions WHERE transaction_id = ? AND next_step_at IS NOT NULL AND next_step_at <= ?",
            [.text(transactionId), .integer(now)]
        ).first.map(TransactionRecord.init(row:))
    }

    /// Leases the transaction's step, while it is still in `status`, until `until` (real time); `false`
    /// when another worker's lease is not over at `realNow`.
    package static func leaseStep(
        _ transactionId: String, status: String, until: Int64, realNow: Int64, on connection: any SQLConnection
    ) throws -> Bool {
        try connection.execute(
            """
            UPDATE onramp_transactions SET lease_until = ?
            WHERE transaction_id = ? AND status = ? AND \(SettlementLease.isFree)
            """, [.integer(until), .text(transactionId), .text(status), .integer(realNow)]) == 1
    }

    /// Stores this record's step outcome (status, hash, failure, times) and frees the lease, if the
    /// transaction is still in `previous`; `false` when another worker recorded it first.
    package func recordStep(from previous: String, on connection: any SQLConnection) throws -> Bool {
        try connection.execute(
            """
            UPDATE onramp_transactions
            SET status = ?, tx_hash = ?, failure_reason = ?, updated_at = ?, completed_at = ?, next_step_at = ?,
                lease_until = NULL
            WHERE transaction_id = ? AND status = ?
            """,
            [
                .text(status), .text(txHash), failureReason.map(SQLValue.text) ?? .null, .integer(updatedAt),
                completedAt.map(SQLValue.integer) ?? .null, nextStepAt.map(SQLValue.integer) ?? .null,
                .text(transactionId), .text(previous),
            ]) == 1
    }
}

import OnrampStore

/// The `stripe_idempotency_keys` table, over one transaction's connection: a key is reserved (status
/// 0) before its request runs, completed with the sealed response, or released. `IdempotencyKeys`
/// holds the rules and the sealing.
package struct IdempotencyRecordRepository {
    /// A stored key: the keyed hash of its request, and the answer's status (0 while the request
    /// runs) and sealed body.
    package struct Record {
        package let requestHash: String
        package let status: Int
        package let sealedBody: String
    }

    package let connection: any SQLConnection

    /// Reserves `key` of `projectId` for the request hashed `requestHash`; false when it is already
    /// reserved or completed.
    package func reserve(projectId: String, key: String, requestHash: String, now: Int64) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO stripe_idempotency_keys (project_id, idempotency_key, request_hash, status, body, created_at)
            VALUES (?, ?, ?, 0, '', ?) ON CONFLICT DO NOTHING
            """, [.text(projectId), .text(key), .text(requestHash), .integer(now)]) == 1
    }

    /// Records the answer of the request that reserved `key`.
    package func complete(projectId: String, key: String, status: Int, sealedBody: String) throws {
        try connection.execute(
            "UPDATE stripe_idempotency_keys SET status = ?, body = ? WHERE project_id = ? AND idempotency_key = ?",
            [.integer(Int64(status)), .text(sealedBody), .text(projectId), .text(key)])
    }

    /// The record of `key` of `projectId`.
    package func find(projectId: String, key: String) throws -> Record? {
        try connection.query(
            """
            SELECT request_hash, status, body FROM stripe_idempotency_keys
            WHERE project_id = ? AND idempotency_key = ?
            """, [.text(projectId), .text(key)]
        ).first.map { row in
            Record(
                requestHash: try row.string("request_hash"), status: Int(try row.int("status")),
                sealedBody: try row.string("body"))
        }
    }

    /// Frees `key` when its request is still running (status 0), so that it can be retried.
    package func release(projectId: String, key: String) throws {
        try connection.execute(
            "DELETE FROM stripe_idempotency_keys WHERE project_id = ? AND idempotency_key = ? AND status = 0",
            [.text(projectId), .text(key)])
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

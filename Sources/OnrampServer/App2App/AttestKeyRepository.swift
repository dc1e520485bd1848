import AppAttest
import OnrampStore

/// Registered App Attest keys: one row per (project, App ID, key id), upserted on re-registration.
struct AttestKeyRepository {
    /// A registered key.
    struct Record {
        let projectId: String
        let appId: String
        let keyId: String
        /// Standard base64 of the X9.63 public key.
        let publicKey: String
        let environment: AppAttestEnvironment
        let counter: Int64
    }

    let connection: any SQLConnection

    func upsert(
        projectId: String, appId: String, keyId: String, publicKey: String, environment: AppAttestEnvironment,
        receipt: String,
        now: Int64
    ) throws {
        try connection.execute(
            """
            INSERT INTO app_attest_keys (project_id, app_id, key_id, public_key, environment, receipt, counter, attested_at)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?)
            ON CONFLICT (project_id, app_id, key_id) DO UPDATE SET
                public_key = excluded.public_key, environment = excluded.environment, receipt = excluded.receipt,
                counter = 0, attested_at = excluded.attested_at
            """,
            [
                .text(projectId), .text(appId), .text(keyId), .text(publicKey), .text(environment.rawValue),
                .text(receipt),
                .integer(now),
            ])
    }

    func find(projectId: String, keyId: String) throws -> [Record] {
        try connection.query(
            "SELECT * FROM app_attest_keys WHERE project_id = ? AND key_id = ? ORDER BY app_id",
            [.text(projectId), .text(keyId)]
        ).map { row in
            guard let environment = AppAttestEnvironment(rawValue: try row.string("environment")) else {
                throw StoreError(.typeMismatch, "app_attest_keys.environment is not an App Attest environment")
            }
            return Record(
                projectId: try row.string("project_id"), appId: try row.string("app_id"),
                keyId: try row.string("key_id"), publicKey: try row.string("public_key"), environment: environment,
                counter: try row.int("counter"))
        }
    }

    /// Stores a new counter; `false` when the stored one is not lower (a replayed or raced assertion).
    func advanceCounter(projectId: String, appId: String, keyId: String, to counter: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE app_attest_keys SET counter = ? WHERE project_id = ? AND app_id = ? AND key_id = ? AND counter < ?",
            [.integer(counter), .text(projectId), .text(appId), .text(keyId), .integer(counter)]) == 1
    }
}

import AppAttest
import OnrampStore

/// Registered App Attest keys: one row per (project, App ID, key id), upserted on re-registration.
package struct AttestKeyRepository {
    /// A registered key.
    package struct Record {
        package let projectId: String
        package let appId: String
        package let keyId: String
        /// Standard base64 of the X9.63 public key.
        package let publicKey: String
        package let environment: AppAttestEnvironment
        package let counter: Int64
    }

    package let connection: any SQLConnection

    package func upsert(
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

    package func find(projectId: String, keyId: String) throws -> [Record] {
        try connection.run(Self.lookup(projectId: projectId, keyId: keyId))
    }

    /// The records of `keyId` in project `projectId`.
    package static func lookup(projectId: String, keyId: String) -> SQLQuery<[Record]> {
        lookup(projectIdSQL: "?", [.text(projectId)], keyId: keyId)
    }

    /// The records of `keyId` in the project of challenge `challengeId`, for reading them in the challenge's
    /// round trip.
    package static func lookup(projectOfChallenge challengeId: String, keyId: String) -> SQLQuery<[Record]> {
        lookup(projectIdSQL: ChallengeRepository.projectIdSQL, [.text(challengeId)], keyId: keyId)
    }

    private static func lookup(projectIdSQL: String, _ parameters: [SQLValue], keyId: String) -> SQLQuery<[Record]> {
        SQLQuery(
            "SELECT * FROM app_attest_keys WHERE project_id = \(projectIdSQL) AND key_id = ? ORDER BY app_id",
            parameters + [.text(keyId)]
        ) { outcome in
            try outcome.rows.map { row in
                guard let environment = AppAttestEnvironment(rawValue: try row.string("environment")) else {
                    throw StoreError(.typeMismatch, "app_attest_keys.environment is not an App Attest environment")
                }
                return Record(
                    projectId: try row.string("project_id"), appId: try row.string("app_id"),
                    keyId: try row.string("key_id"), publicKey: try row.string("public_key"), environment: environment,
                    counter: try row.int("counter"))
            }
        }
    }

    /// The query that stores a new counter: whether it did (it changes no row when the stored one is not
    /// lower: a replayed or raced assertion).
    package static func advancing(projectId: String, appId: String, keyId: String, to counter: Int64) -> SQLQuery<Bool>
    {
        SQLQuery(
            "UPDATE app_attest_keys SET counter = ? WHERE project_id = ? AND app_id = ? AND key_id = ? AND counter < ?",
            [.integer(counter), .text(projectId), .text(appId), .text(keyId), .integer(counter)]
        ) { $0.changes == 1 }
    }
}

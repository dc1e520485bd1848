import OnrampStore
import OnrampWire

/// The end partners an aggregator project places orders for (cdp-sdk 1.51.0 `OnrampApi.create_onramp_order`'s
/// `X-Onramp-Partner-Id`, "only honored for developer apps registered as an aggregator"): a project with at least
/// one end partner is an aggregator. On the transaction's connection.
package struct EndPartnerRepository {
    package static let migrations = [
        Migration(
            version: 630, name: "aggregator_end_partners",
            sql: """
                CREATE TABLE project_end_partners (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    partner_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, partner_id)
                );
                ALTER TABLE onramp_orders ADD COLUMN partner_id TEXT;
                """),
        // The hosted onramp's sessions take the header too; their transactions carry it.
        Migration(
            version: 650, name: "aggregator_transactions",
            sql: "ALTER TABLE onramp_transactions ADD COLUMN partner_id TEXT;"),
    ]

    package let connection: any SQLConnection

    /// Registers the end partner `partnerId` (named `name`) of `projectId`.
    package func add(partnerId: String, name: String, projectId: String, now: Int64) throws {
        try connection.execute(
            "INSERT INTO project_end_partners (project_id, partner_id, name, created_at) VALUES (?, ?, ?, ?)",
            [.text(projectId), .text(partnerId), .text(name), .integer(now)])
    }

    /// The end partner an order of `projectId` is scoped to by the header value `requested`: nil when the
    /// header is absent or the project is no aggregator (the header is then ignored, as Coinbase ignores it);
    /// ``HeadlessFailure/unknownEndPartner`` when an aggregator names a partner it has not registered.
    package func scope(_ requested: String?, projectId: String) throws -> String? {
        guard let requested else { return nil }
        let rows = try connection.query(
            """
            SELECT (SELECT COUNT(*) FROM project_end_partners WHERE project_id = ?) AS partners,
                (SELECT COUNT(*) FROM project_end_partners WHERE project_id = ? AND partner_id = ?) AS matches
            """,
            [.text(projectId), .text(projectId), .text(requested)])
        guard let row = rows.first, try row.int("partners") > 0 else { return nil }
        guard try row.int("matches") == 1 else { throw HeadlessFailure.unknownEndPartner }
        return requested
    }
}

import OnrampStore

/// The `onramp_limit_upgrades` table, on the transaction's connection: a guest's limit upgrade (cdp-sdk
/// 1.51.0 `OnrampLimitUpgradeOption`), per person (phone number) and mode, like the limits it raises.
package struct LimitUpgradeRepository {
    package static let migrations = [
        Migration(
            version: 620, name: "onramp_limit_upgrades",
            sql: """
                CREATE TABLE onramp_limit_upgrades (
                    phone_number TEXT NOT NULL,
                    livemode BIGINT NOT NULL,
                    status TEXT NOT NULL,
                    requested_at BIGINT NOT NULL,
                    PRIMARY KEY (phone_number, livemode)
                );
                """),
        // Embedded mode's hosted upgrade pages: single use, expiring, the token kept as a hash.
        Migration(
            version: 640, name: "onramp_limit_upgrade_links",
            sql: """
                CREATE TABLE onramp_limit_upgrade_links (
                    token_hash TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    phone_number TEXT NOT NULL,
                    livemode BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                );
                """),
    ]

    /// An embedded-mode upgrade page's link: whose upgrade it takes, until when, and whether it was used.
    package struct Link: Sendable, Equatable {
        package var projectId: String
        package var phoneNumber: String
        package var livemode: Bool
        package var expiresAt: Int64
        package var used: Bool
    }

    /// Where an upgrade stands (`OnrampLimitUpgradeStatus`).
    package enum Status: String, Sendable, CaseIterable {
        case unrequested, resubmit, pending, active, inactive
    }

    package let connection: any SQLConnection

    /// The upgrade of `phone` in `livemode` (`unrequested` when none was asked for).
    package func status(phone: String, livemode: Bool) throws -> Status {
        try connection.query(
            "SELECT status FROM onramp_limit_upgrades WHERE phone_number = ? AND livemode = ?",
            [.text(phone), .integer(livemode ? 1 : 0)]
        ).first.flatMap { Status(rawValue: try $0.string("status")) } ?? .unrequested
    }

    /// Records a request's outcome for `phone` in `livemode`.
    package func record(_ status: Status, phone: String, livemode: Bool, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO onramp_limit_upgrades (phone_number, livemode, status, requested_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (phone_number, livemode) DO UPDATE SET status = excluded.status,
                requested_at = excluded.requested_at
            """, [.text(phone), .integer(livemode ? 1 : 0), .text(status.rawValue), .integer(now)])
    }

    /// Stores the link whose token hashes to `tokenHash`.
    package func insertLink(tokenHash: String, _ link: Link, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO onramp_limit_upgrade_links (token_hash, project_id, phone_number, livemode, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(tokenHash), .text(link.projectId), .text(link.phoneNumber), .integer(link.livemode ? 1 : 0),
                .integer(now), .integer(link.expiresAt),
            ])
    }

    /// The link whose token hashes to `tokenHash`, if any.
    package func link(tokenHash: String) throws -> Link? {
        try connection.query(
            """
            SELECT project_id, phone_number, livemode, expires_at, used_at FROM onramp_limit_upgrade_links
            WHERE token_hash = ?
            """, [.text(tokenHash)]
        ).first.map { row in
            Link(
                projectId: try row.string("project_id"), phoneNumber: try row.string("phone_number"),
                livemode: try row.int("livemode") != 0, expiresAt: try row.int("expires_at"),
                used: row.optionalInt("used_at") != nil)
        }
    }

    /// Marks the link used at `now`; false when it was used already or has expired (a second submission, even a
    /// parallel one, changes nothing).
    package func spendLink(tokenHash: String, now: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE onramp_limit_upgrade_links SET used_at = ?
            WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
            """, [.integer(now), .text(tokenHash), .integer(now)]) == 1
    }
}

import OnrampStore

/// The `onramp_limit_upgrades` table, on the transaction's connection: a guest's limit upgrade (cdp-sdk
/// 1.51.0 `OnrampLimitUpgradeOption`), per person (phone number) and mode, like the limits it raises.
struct LimitUpgradeRepository {
    static let migrations = [
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
                """)
    ]

    /// Where an upgrade stands (`OnrampLimitUpgradeStatus`).
    enum Status: String, Sendable, CaseIterable {
        case unrequested, resubmit, pending, active, inactive
    }

    let connection: any SQLConnection

    /// The upgrade of `phone` in `livemode` (`unrequested` when none was asked for).
    func status(phone: String, livemode: Bool) throws -> Status {
        try connection.query(
            "SELECT status FROM onramp_limit_upgrades WHERE phone_number = ? AND livemode = ?",
            [.text(phone), .integer(livemode ? 1 : 0)]
        ).first.flatMap { Status(rawValue: try $0.string("status")) } ?? .unrequested
    }

    /// Records a request's outcome for `phone` in `livemode`.
    func record(_ status: Status, phone: String, livemode: Bool, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO onramp_limit_upgrades (phone_number, livemode, status, requested_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (phone_number, livemode) DO UPDATE SET status = excluded.status,
                requested_at = excluded.requested_at
            """, [.text(phone), .integer(livemode ? 1 : 0), .text(status.rawValue), .integer(now)])
    }
}

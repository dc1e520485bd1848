import OnrampStore

/// A settlement worker's exclusive claim on one due purchase, timed in **real** time.
///
/// A purchase's steps come due in its project's time (a test clock moves them); the lease that lets one
/// worker (instance) settle it alone must not: were it stored in project time, moving the clock a minute
/// during a settlement in flight would hand the purchase to a second worker. So each settled table has a
/// `lease_until` column of its own, written by the claim and compared with the real clock.
package enum SettlementLease {
    /// How long a claimed settlement may run before another worker may retry it (with the same
    /// reference, on which providers must be idempotent).
    package static let milliseconds: Int64 = 60_000

    /// The condition that the row is not leased at the real time bound to its `?`.
    package static let isFree = "(lease_until IS NULL OR lease_until < ?)"

    /// Adds `lease_until` to the four settled tables (the leases used to be written over the due time).
    package static let migrations = [
        Migration(
            version: 500, name: "settlement_leases",
            sql: """
                ALTER TABLE onramp_transactions ADD COLUMN lease_until BIGINT;
                ALTER TABLE crypto_onramp_sessions ADD COLUMN lease_until BIGINT;
                ALTER TABLE onramp_orders ADD COLUMN lease_until BIGINT;
                ALTER TABLE offramp_transactions ADD COLUMN lease_until BIGINT;
                """)
    ]
}

import OnrampStore

/// Every migration of the server's database, in version ranges per feature so features can add
/// tables independently: 100s projects and keys (150 the outbox, 160 test clocks), 200s App2App (220s the hosted onramp, 230s the Headless
/// Onramp, 240s the offramp), 300s Embedded,
/// 400s webhooks, 500s changes across features (500 settlement leases, 540 room on PostgreSQL's pages) and
/// features' later columns and tables (550 the 2026 KYC fields, 560 the per-person counters' mode and real time,
/// 570 the console's sign-ins, 580 the 2026 KYC and compliance calls, 590 deposit addresses), 600s Coinbase's 2026
/// Headless surface (600 embedded orders, 610 verification idempotency, 620 limit upgrades, 640 their hosted links,
/// 630 and 650 aggregators' end partners), and later indexes for the console (670 purchase sessions and 680
/// hosted sessions by their transaction), 690 the caller cache's notifications, 700 transactions by their
/// redirect's id, 710 the onramp session's details as columns.
public enum Schema {
    /// All migrations in version order.
    public static var migrations: [Migration] {
        (projectMigrations + app2AppMigrations + app2AppIndexMigrations + hostedOnrampMigrations + outboxMigrations
            + webhookMigrations + HeadlessSchema.migrations + OfframpSchema.migrations
            + EmbeddedSchema.migrations + TestClockSchema.migrations + SettlementLease.migrations
            + PurchaseSessionRepository.migrations + lookupIndexMigrations + pageRoomMigrations
            + ConsoleSessionRepository.migrations + KYCComplianceRepository.migrations
            + DepositAddressRepository.migrations + CryptoDepositRepository.migrations + APIKeyRepository.migrations
            + OnrampSessionRepository.migrations)
            .sorted { $0.version < $1.version }
    }

    package static let projectMigrations = [
        Migration(
            version: 100, name: "projects",
            sql: """
                CREATE TABLE projects (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    app2app_enabled BIGINT NOT NULL DEFAULT 1,
                    allowed_environments TEXT NOT NULL DEFAULT 'development,production',
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE project_app_ids (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    app_id TEXT NOT NULL,
                    PRIMARY KEY (project_id, app_id)
                );
                CREATE TABLE project_redirect_hosts (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    host TEXT NOT NULL,
                    PRIMARY KEY (project_id, host)
                );
                CREATE TABLE api_keys (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    kind TEXT NOT NULL,
                    public_key TEXT,
                    secret_hash TEXT,
                    livemode BIGINT NOT NULL DEFAULT 0,
                    disabled BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL
                );
                CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys(secret_hash);
                CREATE TABLE jwt_nonces (
                    key_id TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    PRIMARY KEY (key_id, nonce)
                );
                CREATE INDEX jwt_nonces_expiry ON jwt_nonces(expires_at);
                """)
    ]

    package static let app2AppMigrations = [
        Migration(
            version: 200, name: "app2app",
            sql: """
                CREATE TABLE attestation_challenges (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    purpose TEXT NOT NULL,
                    purchase TEXT,
                    idempotency_key TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                );
                CREATE UNIQUE INDEX attestation_challenges_idempotency
                    ON attestation_challenges(project_id, idempotency_key);
                CREATE INDEX attestation_challenges_expiry ON attestation_challenges(expires_at);
                CREATE TABLE app_attest_keys (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    app_id TEXT NOT NULL,
                    key_id TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    receipt TEXT NOT NULL,
                    counter BIGINT NOT NULL,
                    attested_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, app_id, key_id)
                );
                CREATE INDEX app_attest_keys_key ON app_attest_keys(project_id, key_id);
                CREATE TABLE purchase_sessions (
                    token TEXT PRIMARY KEY,
                    challenge_id TEXT NOT NULL UNIQUE REFERENCES attestation_challenges(id),
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    key_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    assertion_counter BIGINT NOT NULL,
                    purchase TEXT NOT NULL,
                    quote TEXT NOT NULL,
                    sandbox BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    opened_at BIGINT,
                    page_secret_hash TEXT,
                    outcome TEXT,
                    redirect_transaction_id TEXT,
                    transaction_id TEXT
                );
                CREATE TABLE onramp_transactions (
                    transaction_id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    session_token TEXT NOT NULL UNIQUE,
                    partner_user_ref TEXT NOT NULL,
                    status TEXT NOT NULL,
                    purchase_currency TEXT NOT NULL,
                    purchase_network TEXT NOT NULL,
                    purchase_amount TEXT NOT NULL,
                    payment_currency TEXT NOT NULL,
                    payment_total TEXT NOT NULL,
                    payment_subtotal TEXT NOT NULL,
                    payment_total_usd TEXT NOT NULL,
                    coinbase_fee TEXT NOT NULL,
                    network_fee TEXT NOT NULL,
                    exchange_rate TEXT NOT NULL,
                    wallet_address TEXT NOT NULL,
                    contract_address TEXT NOT NULL,
                    country TEXT NOT NULL,
                    payment_method TEXT NOT NULL,
                    tx_hash TEXT NOT NULL DEFAULT '',
                    failure_reason TEXT,
                    end_partner_name TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    completed_at BIGINT,
                    next_step_at BIGINT
                );
                CREATE INDEX onramp_transactions_user
                    ON onramp_transactions(project_id, partner_user_ref, created_at, transaction_id);
                CREATE INDEX onramp_transactions_project ON onramp_transactions(project_id, created_at, transaction_id);
                CREATE INDEX onramp_transactions_pending ON onramp_transactions(next_step_at);
                """)
    ]

    /// Indexes for lookups that scanned a whole table (found by `EXPLAIN QUERY PLAN` over the server's
    /// statements, kept so by `QueryPlanTests`): a project's publishable key, which the platform settings
    /// and seamless sign-in read for a secret-key caller, and a project's live keys; a wallet's ownership
    /// challenges.
    package static let lookupIndexMigrations = [
        Migration(
            version: 520, name: "lookup_indexes",
            sql: """
                CREATE INDEX api_keys_project ON api_keys(project_id, kind, livemode, created_at);
                CREATE INDEX wallet_ownership_challenges_wallet ON wallet_ownership_challenges(wallet_id);
                """)
    ]

    /// Room on PostgreSQL's pages for the rows an attested session changes. A session marks its
    /// challenge used and advances its key's counter; on a full page (PostgreSQL fills them to 100 %) the
    /// new row version goes to another page and every index of the table gets an entry for it, where
    /// with room on the same page it is a heap-only update that no index sees. Under load the room
    /// cannot come from pruning the page's old versions, which other transactions' snapshots still see
    /// (`PostgresPageRoomTests`). Measured with pg_stat_statements over the session load: the
    /// challenge's update 59 → 38 µs, 12.6 → 7.9 buffers; the key's 34 → 21 µs. Only pages filled from
    /// now on keep the room. (SQLite has no such setting; it rewrites the row in place.)
    package static let pageRoomMigrations = [
        Migration(
            version: 540, name: "page_room_for_updates", sql: "SELECT 1",
            postgresSQL: """
                ALTER TABLE attestation_challenges SET (fillfactor = 70);
                ALTER TABLE app_attest_keys SET (fillfactor = 70);
                """)
    ]

    package static let app2AppIndexMigrations = [
        Migration(
            version: 210, name: "app_attest_keys_lookup",
            sql: """
                DROP INDEX app_attest_keys_key;
                CREATE INDEX app_attest_keys_lookup ON app_attest_keys(project_id, key_id, app_id);
                """)
    ]

    package static let hostedOnrampMigrations = [
        Migration(
            version: 220, name: "hosted_onramp",
            sql: """
                CREATE TABLE hosted_onramp_sessions (
                    token_hash TEXT PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    kind TEXT NOT NULL,
                    destinations TEXT NOT NULL,
                    assets TEXT,
                    presets TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    opened_at BIGINT,
                    page_secret_hash TEXT,
                    outcome TEXT,
                    transaction_id TEXT
                );
                CREATE INDEX hosted_onramp_sessions_expiry ON hosted_onramp_sessions(expires_at);
                ALTER TABLE onramp_transactions ADD COLUMN is_app_to_app BIGINT NOT NULL DEFAULT 1;
                """)
    ]

    package static let outboxMigrations = [
        Migration(
            version: 150, name: "outbox",
            sql: """
                CREATE TABLE outbox_events (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    family TEXT NOT NULL,
                    type TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    livemode BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    fanned_out BIGINT NOT NULL DEFAULT 0
                );
                CREATE INDEX outbox_events_pending ON outbox_events(fanned_out, created_at);
                CREATE INDEX outbox_events_listing ON outbox_events(project_id, family, created_at, id);
                """),
        // On PostgreSQL a commit that adds events notifies every listening dispatcher (each instance's
        // ChangeWatcher), once per statement; SQLite's dispatchers watch the file instead.
        Migration(
            version: 151, name: "outbox_notify", sql: "SELECT 1",
            postgresSQL: """
                CREATE FUNCTION onramp_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_notify('\(outboxChannel)', '');
                    RETURN NULL;
                END $$;
                CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events
                    FOR EACH STATEMENT EXECUTE FUNCTION onramp_outbox_notify();
                """),
        // The dispatcher takes new events `ORDER BY created_at, id`: without `id` in the index, events
        // committed in the same millisecond (a burst, a batch) were sorted in a temporary tree on every
        // fan-out, all of them each time, so a backlog of 20,000 cost a quadratic amount of sorting.
        Migration(
            version: 152, name: "outbox_events_pending_in_order",
            sql: """
                DROP INDEX outbox_events_pending;
                CREATE INDEX outbox_events_pending ON outbox_events(fanned_out, created_at, id);
                """),
    ]
}

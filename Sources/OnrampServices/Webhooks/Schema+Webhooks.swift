import OnrampStore

extension Schema {
    /// Webhook subscriptions (both families in one table), one delivery row per event and subscription,
    /// and every delivery attempt.
    package static let webhookMigrations = [
        Migration(
            version: 400, name: "webhooks",
            sql: """
                CREATE TABLE webhook_subscriptions (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    family TEXT NOT NULL,
                    url TEXT NOT NULL,
                    description TEXT NOT NULL DEFAULT '',
                    event_types TEXT NOT NULL,
                    headers TEXT NOT NULL DEFAULT '{}',
                    metadata TEXT NOT NULL DEFAULT '{}',
                    labels TEXT NOT NULL DEFAULT '{}',
                    secret TEXT NOT NULL,
                    enabled BIGINT NOT NULL DEFAULT 1,
                    disabled_reason TEXT,
                    failing_since BIGINT,
                    livemode BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                );
                CREATE INDEX webhook_subscriptions_project ON webhook_subscriptions(project_id, family, created_at, id);
                CREATE TABLE webhook_deliveries (
                    id TEXT PRIMARY KEY,
                    event_id TEXT NOT NULL,
                    subscription_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    attempt_count BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL,
                    lease_owner TEXT,
                    lease_until BIGINT,
                    created_at BIGINT NOT NULL,
                    succeeded_at BIGINT,
                    last_status_code BIGINT,
                    last_response TEXT,
                    last_error TEXT,
                    UNIQUE (event_id, subscription_id)
                );
                CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
                CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries(subscription_id, created_at);
                CREATE INDEX webhook_deliveries_lease ON webhook_deliveries(lease_owner);
                CREATE TABLE webhook_attempts (
                    id TEXT PRIMARY KEY,
                    delivery_id TEXT NOT NULL,
                    event_id TEXT NOT NULL,
                    subscription_id TEXT NOT NULL,
                    attempted_at BIGINT NOT NULL,
                    status_code BIGINT,
                    latency_ms BIGINT NOT NULL,
                    response_excerpt TEXT,
                    error TEXT
                );
                CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, attempted_at);
                """),
        // The console's "fail the next N deliveries": that many attempts fail without being sent.
        Migration(
            version: 410, name: "webhook_fail_next",
            sql: "ALTER TABLE webhook_subscriptions ADD COLUMN fail_next BIGINT NOT NULL DEFAULT 0"),
        // Each attempt's request headers as sent (the console shows them beside the body).
        Migration(
            version: 420, name: "webhook_attempt_headers",
            sql: "ALTER TABLE webhook_attempts ADD COLUMN request_headers TEXT"),
        // The dispatcher's indexes hold only the work left: events not yet fanned out, deliveries still
        // pending. Every event and delivery used to stay in them after it was done, so each fan-out and
        // each success wrote an index entry nothing reads, and the indexes grew with the history
        // (backlog drain: 8 % fewer pwrite calls per event). The constant column stays first so that
        // the dispatcher's queries search the index rather than scan it (QueryPlanTests).
        Migration(
            version: 530, name: "dispatcher_partial_indexes",
            sql: """
                DROP INDEX outbox_events_pending;
                CREATE INDEX outbox_events_pending ON outbox_events(fanned_out, created_at, id) WHERE fanned_out = 0;
                DROP INDEX webhook_deliveries_due;
                CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at)
                    WHERE status = 'pending';
                """),
    ]
}

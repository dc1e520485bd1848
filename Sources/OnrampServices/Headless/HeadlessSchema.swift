import OnrampStore

/// The tables of the Headless Onramp (Coinbase's `/v2/onramp/orders`, limits and OTP verifications):
/// versions 230–231, in the App2App range.
package enum HeadlessSchema {
    package static let migrations =
        [
            Migration(
                version: 230, name: "headless_onramp",
                sql: """
                    CREATE TABLE onramp_verifications (
                        id TEXT PRIMARY KEY,
                        project_id TEXT NOT NULL REFERENCES projects(id),
                        channel TEXT NOT NULL,
                        destination TEXT NOT NULL,
                        code_hash TEXT NOT NULL,
                        attempts BIGINT NOT NULL DEFAULT 0,
                        otp_expires_at BIGINT NOT NULL,
                        verified_at BIGINT,
                        verification_expires_at BIGINT,
                        created_at BIGINT NOT NULL
                    );
                    CREATE INDEX onramp_verifications_expiry ON onramp_verifications(otp_expires_at);
                    CREATE TABLE onramp_guest_users (
                        phone_number TEXT PRIMARY KEY,
                        created_at BIGINT NOT NULL
                    );
                    CREATE TABLE onramp_orders (
                        order_id TEXT PRIMARY KEY,
                        project_id TEXT NOT NULL REFERENCES projects(id),
                        partner_user_ref TEXT NOT NULL,
                        partner_order_ref TEXT,
                        status TEXT NOT NULL,
                        failure_reason TEXT,
                        payment_method TEXT NOT NULL,
                        payment_currency TEXT NOT NULL,
                        payment_total TEXT NOT NULL,
                        payment_subtotal TEXT NOT NULL,
                        purchase_amount TEXT NOT NULL,
                        purchase_currency TEXT NOT NULL,
                        exchange_rate TEXT NOT NULL,
                        exchange_fee TEXT NOT NULL,
                        network_fee TEXT NOT NULL,
                        destination_address TEXT NOT NULL,
                        destination_network TEXT NOT NULL,
                        phone_number TEXT NOT NULL,
                        email TEXT NOT NULL,
                        domain TEXT,
                        tx_hash TEXT,
                        sandbox BIGINT NOT NULL,
                        link_token_hash TEXT NOT NULL UNIQUE,
                        link_token_sealed TEXT NOT NULL,
                        link_expires_at BIGINT NOT NULL,
                        idempotency_key TEXT,
                        request_hash TEXT,
                        next_step_at BIGINT,
                        created_at BIGINT NOT NULL,
                        updated_at BIGINT NOT NULL
                    );
                    CREATE INDEX onramp_orders_guest ON onramp_orders(phone_number, created_at);
                    CREATE UNIQUE INDEX onramp_orders_idempotency ON onramp_orders(project_id, idempotency_key);
                    CREATE INDEX onramp_orders_due ON onramp_orders(next_step_at);
                    """),
            Migration(
                version: 231, name: "onramp_verifications_by_destination",
                sql: """
                    CREATE INDEX onramp_verifications_destination
                        ON onramp_verifications(channel, destination, created_at);
                    """),
            // The per-person counters (codes sent to a destination, a guest's spending and orders) are shared by
            // every partner of one mode and judged in real time: each row records its mode and the real time it
            // was made (a test clock moves only its own project's `created_at`). Rows made before are given
            // their project's mode and their `created_at`.
            Migration(
                version: 560, name: "person_counters_by_mode_in_real_time",
                sql: """
                    ALTER TABLE onramp_verifications ADD COLUMN livemode BIGINT NOT NULL DEFAULT 0;
                    ALTER TABLE onramp_verifications ADD COLUMN sent_at BIGINT NOT NULL DEFAULT 0;
                    UPDATE onramp_verifications SET sent_at = created_at, livemode = CASE WHEN EXISTS (
                        SELECT 1 FROM api_keys k WHERE k.project_id = onramp_verifications.project_id AND k.livemode = 1
                    ) THEN 1 ELSE 0 END;
                    ALTER TABLE onramp_orders ADD COLUMN livemode BIGINT NOT NULL DEFAULT 0;
                    ALTER TABLE onramp_orders ADD COLUMN placed_at BIGINT NOT NULL DEFAULT 0;
                    UPDATE onramp_orders SET placed_at = created_at, livemode = CASE WHEN EXISTS (
                        SELECT 1 FROM api_keys k WHERE k.project_id = onramp_orders.project_id AND k.livemode = 1
                    ) THEN 1 ELSE 0 END;
                    """),
            // Coinbase's embedded-mode orders: the hosted page verifies the user (the code it sent), and a verified
            // user's reusable userAuthToken (kept as a hash; sealed on its orders to be shown again).
            Migration(
                version: 600, name: "embedded_orders_and_user_auth_tokens",
                sql: """
                    ALTER TABLE onramp_orders ADD COLUMN embedded BIGINT NOT NULL DEFAULT 0;
                    ALTER TABLE onramp_orders ADD COLUMN verification_id TEXT;
                    ALTER TABLE onramp_orders ADD COLUMN user_auth_token_sealed TEXT;
                    CREATE TABLE onramp_user_auth_tokens (
                        token_hash TEXT PRIMARY KEY,
                        project_id TEXT NOT NULL REFERENCES projects(id),
                        partner_user_ref TEXT NOT NULL,
                        phone_number TEXT NOT NULL,
                        email TEXT NOT NULL,
                        destination_address TEXT NOT NULL,
                        created_at BIGINT NOT NULL,
                        expires_at BIGINT NOT NULL,
                        revoked_at BIGINT
                    );
                    """),
        ] + VerificationRepository.idempotencyMigrations + LimitUpgradeRepository.migrations
        + EndPartnerRepository.migrations
}

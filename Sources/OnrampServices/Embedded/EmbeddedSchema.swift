import OnrampStore

/// The Embedded Components tables (versions 300–399): Link consumers and OAuth, crypto customers and
/// KYC, wallets, payment methods and tokens, onramp sessions, and Stripe idempotency keys. Secrets
/// (tokens, OTP sessions, id numbers) are stored only as SHA-256 hashes.
package enum EmbeddedSchema {
    package static let migrations = [
        Migration(
            version: 300, name: "embedded_link",
            sql: """
                CREATE TABLE link_consumers (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    email TEXT NOT NULL,
                    email_hash TEXT NOT NULL,
                    phone TEXT NOT NULL,
                    country TEXT NOT NULL,
                    legal_name TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE UNIQUE INDEX link_consumers_email ON link_consumers(project_id, email);
                CREATE INDEX link_consumers_email_hash ON link_consumers(project_id, email_hash);
                CREATE TABLE consumer_sessions (
                    secret_hash TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    consumer_id TEXT NOT NULL REFERENCES link_consumers(id),
                    link_auth_intent_id TEXT,
                    verified BIGINT NOT NULL DEFAULT 0,
                    otp_started BIGINT NOT NULL DEFAULT 0,
                    otp_failures BIGINT NOT NULL DEFAULT 0,
                    logged_out BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE TABLE link_auth_intents (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    consumer_id TEXT NOT NULL REFERENCES link_consumers(id),
                    oauth_client_id TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE TABLE oauth_tokens (
                    token_hash TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    family_id TEXT NOT NULL,
                    project_id TEXT NOT NULL,
                    consumer_id TEXT NOT NULL,
                    oauth_client_id TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    revoked BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL
                );
                CREATE INDEX oauth_tokens_family ON oauth_tokens(family_id);
                CREATE TABLE link_auth_tokens (
                    token_hash TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    project_id TEXT NOT NULL,
                    consumer_id TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE stripe_idempotency_keys (
                    project_id TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    status BIGINT NOT NULL,
                    body TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, idempotency_key)
                );
                """),
        Migration(
            version: 310, name: "embedded_crypto",
            sql: """
                CREATE TABLE crypto_customers (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    consumer_id TEXT NOT NULL UNIQUE REFERENCES link_consumers(id),
                    livemode BIGINT NOT NULL,
                    first_name TEXT,
                    last_name TEXT,
                    id_number_hash TEXT,
                    id_number_last4 TEXT,
                    id_type TEXT,
                    dob TEXT,
                    line1 TEXT,
                    line2 TEXT,
                    city TEXT,
                    state TEXT,
                    zip TEXT,
                    country TEXT NOT NULL,
                    phone_status TEXT NOT NULL,
                    kyc_status TEXT NOT NULL,
                    document_status TEXT NOT NULL,
                    verification_due_at BIGINT,
                    created_at BIGINT NOT NULL
                );
                CREATE INDEX crypto_customers_due ON crypto_customers(verification_due_at);
                CREATE TABLE identity_verifications (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    page_token_hash TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE crypto_wallets (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    network TEXT NOT NULL,
                    wallet_address TEXT NOT NULL,
                    livemode BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE UNIQUE INDEX crypto_wallets_address ON crypto_wallets(customer_id, network, wallet_address);
                CREATE TABLE payment_methods (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    details TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE payment_tokens (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    payment_method_id TEXT NOT NULL,
                    details TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE INDEX payment_tokens_customer ON payment_tokens(customer_id, created_at);
                CREATE TABLE crypto_onramp_sessions (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    client_secret TEXT NOT NULL,
                    livemode BIGINT NOT NULL,
                    status TEXT NOT NULL,
                    last_error TEXT,
                    details TEXT NOT NULL,
                    destination_currency TEXT NOT NULL,
                    destination_network TEXT NOT NULL,
                    quote_expires_at BIGINT NOT NULL,
                    three_ds_token_hash TEXT,
                    three_ds_status TEXT,
                    mandate_accepted BIGINT NOT NULL DEFAULT 0,
                    transaction_id TEXT,
                    fulfill_due_at BIGINT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                );
                CREATE INDEX crypto_onramp_sessions_listing ON crypto_onramp_sessions(project_id, created_at, id);
                CREATE INDEX crypto_onramp_sessions_due ON crypto_onramp_sessions(fulfill_due_at);
                """),
        Migration(
            version: 320, name: "otp_failure_times",
            sql: """
                ALTER TABLE consumer_sessions ADD COLUMN last_otp_failure_at BIGINT;
                CREATE INDEX consumer_sessions_consumer ON consumer_sessions(consumer_id, last_otp_failure_at);
                """),
        Migration(
            version: 330, name: "link_auth_intent_tokens_once",
            sql: "ALTER TABLE link_auth_intents ADD COLUMN tokens_issued_at BIGINT"),
        // How a session was verified (`SIGNUP`, `SMS`, `LINK_AUTH_TOKEN`), which the SDK reads from its
        // `verification_sessions`; sessions verified before it existed were verified by SMS.
        Migration(
            version: 340, name: "consumer_session_verified_by",
            sql: """
                ALTER TABLE consumer_sessions ADD COLUMN verified_by TEXT;
                UPDATE consumer_sessions SET verified_by = 'SMS' WHERE verified = 1;
                """),
        // A Link consumer's saved payment details (shared as payment methods), and the single-use card
        // tokens Apple Pay makes (`POST /v1/tokens`).
        Migration(
            version: 350, name: "link_payment_details_and_card_tokens",
            sql: """
                CREATE TABLE link_payment_details (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    consumer_id TEXT NOT NULL REFERENCES link_consumers(id),
                    details TEXT NOT NULL,
                    billing TEXT NOT NULL,
                    is_default BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL
                );
                CREATE INDEX link_payment_details_consumer ON link_payment_details(consumer_id, created_at);
                CREATE TABLE card_tokens (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    livemode BIGINT NOT NULL,
                    details TEXT NOT NULL,
                    used_at BIGINT,
                    created_at BIGINT NOT NULL
                );
                """),
        // StripeCore's App Attest (`mobile_sdk_attestation/ios_challenge`, `ios_attest`): the challenges issued
        // to a device key (the SDK does not echo them back) and the keys attested for a bundle id.
        Migration(
            version: 360, name: "stripe_attest",
            sql: """
                CREATE TABLE stripe_attest_challenges (
                    challenge TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    device_id TEXT NOT NULL,
                    key_id TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    created_at BIGINT NOT NULL
                );
                CREATE INDEX stripe_attest_challenges_key
                    ON stripe_attest_challenges(project_id, app_id, device_id, key_id, created_at);
                CREATE TABLE stripe_attest_keys (
                    project_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    key_id TEXT NOT NULL,
                    device_id TEXT NOT NULL,
                    full_app_id TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    counter BIGINT NOT NULL,
                    attested_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, app_id, key_id)
                );
                """),
        // The StripeIdentity verification-page API: the ephemeral key the SDK calls it with, what it has
        // collected so far, and the uploaded files (their size and purpose only: no image is kept).
        Migration(
            version: 370, name: "identity_verification_pages",
            sql: """
                ALTER TABLE identity_verifications ADD COLUMN ephemeral_key_hash TEXT;
                ALTER TABLE identity_verifications ADD COLUMN collected TEXT NOT NULL DEFAULT '';
                ALTER TABLE identity_verifications ADD COLUMN submitted BIGINT NOT NULL DEFAULT 0;
                CREATE INDEX identity_verifications_ephemeral_key ON identity_verifications(ephemeral_key_hash);
                CREATE TABLE identity_files (
                    id TEXT PRIMARY KEY,
                    verification_id TEXT NOT NULL REFERENCES identity_verifications(id),
                    purpose TEXT NOT NULL,
                    size BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                );
                """),
        // The 2026 SDK's wallet ownership proofs and the declarations a customer accepts (CRS/CARF, partner terms).
        Migration(
            version: 380, name: "wallet_ownership_and_declarations",
            sql: """
                ALTER TABLE crypto_wallets ADD COLUMN verified_ownership BIGINT NOT NULL DEFAULT 0;
                CREATE TABLE wallet_ownership_challenges (
                    id TEXT PRIMARY KEY,
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    wallet_id TEXT NOT NULL REFERENCES crypto_wallets(id),
                    message TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE customer_declarations (
                    customer_id TEXT NOT NULL REFERENCES crypto_customers(id),
                    kind TEXT NOT NULL,
                    declaration_id TEXT NOT NULL,
                    accepted_at BIGINT NOT NULL,
                    PRIMARY KEY (customer_id, kind)
                );
                """),
        // The 2026 SDKs' KYC fields: nationalities (ISO codes, comma-separated), country and city of birth.
        // Numbered after 540 so a state snapshot of the schema before them (540) is not taken for this one.
        Migration(
            version: 550, name: "kyc_birth_and_nationalities",
            sql: """
                ALTER TABLE crypto_customers ADD COLUMN nationalities TEXT;
                ALTER TABLE crypto_customers ADD COLUMN birth_country TEXT;
                ALTER TABLE crypto_customers ADD COLUMN birth_city TEXT;
                """),
    ]
}

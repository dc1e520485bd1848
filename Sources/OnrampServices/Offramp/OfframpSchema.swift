import OnrampStore

/// The table of offramp (sell) transactions: version 240, in the App2App range; 680 indexes the hosted sessions
/// (buys and sells) by the transaction each made.
package enum OfframpSchema {
    package static let migrations = [
        Migration(
            version: 240, name: "offramp",
            sql: """
                CREATE TABLE offramp_transactions (
                    transaction_id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    partner_user_ref TEXT NOT NULL,
                    status TEXT NOT NULL,
                    asset TEXT NOT NULL,
                    network TEXT NOT NULL,
                    sell_amount TEXT NOT NULL,
                    cashout_currency TEXT NOT NULL,
                    subtotal TEXT NOT NULL,
                    coinbase_fee TEXT NOT NULL,
                    total TEXT NOT NULL,
                    unit_price TEXT NOT NULL,
                    payment_method TEXT NOT NULL,
                    from_address TEXT NOT NULL,
                    to_address TEXT NOT NULL,
                    tx_hash TEXT,
                    redirect_url TEXT NOT NULL,
                    sandbox BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    next_step_at BIGINT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                );
                CREATE INDEX offramp_transactions_user ON offramp_transactions(project_id, partner_user_ref, created_at);
                CREATE INDEX offramp_transactions_listing ON offramp_transactions(project_id, created_at, transaction_id);
                CREATE INDEX offramp_transactions_due ON offramp_transactions(next_step_at);
                ALTER TABLE hosted_onramp_sessions ADD COLUMN flow TEXT;
                """),
        // The console's transaction and sell pages find the hosted session that made them.
        Migration(
            version: 680, name: "hosted_onramp_sessions_transaction",
            sql: "CREATE INDEX hosted_onramp_sessions_transaction ON hosted_onramp_sessions(transaction_id);"),
    ]
}

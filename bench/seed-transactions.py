"""Fills onramp_transactions of a SQLite database up to TOTAL rows for PROJECT, spread over 10,000
users (bench-user-0 … bench-user-9999), with one statement per batch.
Usage: seed-transactions.py DB_PATH PROJECT_ID TOTAL"""
import sqlite3
import sys
import time

path, project, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(path, timeout=30)
existing = db.execute("SELECT COUNT(*) FROM onramp_transactions WHERE project_id = ?", (project,)).fetchone()[0]
now = int(time.time() * 1000)
batch = 50_000
start = existing
while start < total:
    end = min(total, start + batch)
    db.execute("""
        WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
        INSERT INTO onramp_transactions (transaction_id, project_id, session_token, partner_user_ref, status,
            purchase_currency, purchase_network, purchase_amount, payment_currency, payment_total, payment_subtotal,
            payment_total_usd, coinbase_fee, network_fee, exchange_rate, wallet_address, contract_address, country,
            payment_method, tx_hash, end_partner_name, user_id, created_at, updated_at, completed_at)
        SELECT printf('seed-%09d', i), ?, printf('seed-token-%09d', i), 'bench-user-' || (i % 10000),
            'ONRAMP_TRANSACTION_STATUS_SUCCESS', 'USDC', 'base', '24.36', 'USD', '25.00', '24.36', '25.00', '0.63',
            '0.01', '1', '0x52908400098527886E0F7030069857D2E4169EE7', '', 'US', 'CARD',
            printf('0x%064d', i), 'Bench', 'user', ? - i, ? - i, ? - i FROM n
    """, (start, end, project, now, now, now))
    db.commit()
    start = end
print(db.execute("SELECT COUNT(*) FROM onramp_transactions").fetchone()[0])

import OnrampStore

/// A crypto customer's registered wallets (`crypto_wallets`, one per network and address) and the
/// single-use challenges that prove owning one (`wallet_ownership_challenges`).
package struct CryptoWalletRepository {
    /// An open ownership challenge and the wallet it is for.
    package struct Challenge {
        package let message: String
        package let expiresAt: Int64
        package let usedAt: Int64?
        package let walletId: String
        package let network: String
        package let address: String
    }

    package let connection: any SQLConnection
    package let customerId: String

    /// The customer's wallet for `address` on `network`: its id and whether its ownership is proven.
    package func find(network: String, address: String) throws -> (id: String, verifiedOwnership: Bool)? {
        try connection.run(Self.lookup(customerId: customerId, network: network, address: address))
    }

    /// The query of ``find(network:address:)`` for the wallets of `customerId`.
    package static func lookup(customerId: String, network: String, address: String)
        -> SQLQuery<(id: String, verifiedOwnership: Bool)?>
    {
        SQLQuery(
            """
            SELECT id, verified_ownership FROM crypto_wallets
            WHERE customer_id = ? AND network = ? AND wallet_address = ?
            """, [.text(customerId), .text(network), .text(address)]
        ) { try $0.rows.first.map { (try $0.string("id"), try $0.int("verified_ownership") != 0) } }
    }

    /// Registers the wallet unless the customer has it already (then nothing changes).
    package func insert(id: String, projectId: String, network: String, address: String, livemode: Bool, now: Int64)
        throws
    {
        try connection.execute(
            """
            INSERT INTO crypto_wallets (id, project_id, customer_id, network, wallet_address, livemode, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """,
            [
                .text(id), .text(projectId), .text(customerId), .text(network), .text(address),
                .integer(livemode ? 1 : 0), .integer(now),
            ])
    }

    /// Deletes the wallet and its challenges; `false` when the customer has no such wallet.
    package func delete(id: String) throws -> Bool {
        try connection.execute(
            "DELETE FROM wallet_ownership_challenges WHERE wallet_id = ? AND customer_id = ?",
            [.text(id), .text(customerId)])
        return try connection.execute(
            "DELETE FROM crypto_wallets WHERE id = ? AND customer_id = ?", [.text(id), .text(customerId)]) == 1
    }

    /// Stores a challenge for the wallet `walletId`.
    package func insertChallenge(id: String, walletId: String, message: String, expiresAt: Int64, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO wallet_ownership_challenges (id, customer_id, wallet_id, message, expires_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [.text(id), .text(customerId), .text(walletId), .text(message), .integer(expiresAt), .integer(now)])
    }

    /// The customer's challenge `id`, used or not.
    package func challenge(id: String) throws -> Challenge? {
        try connection.query(
            """
            SELECT c.message, c.expires_at, c.used_at, w.id, w.network, w.wallet_address
            FROM wallet_ownership_challenges c JOIN crypto_wallets w ON w.id = c.wallet_id
            WHERE c.id = ? AND c.customer_id = ?
            """, [.text(id), .text(customerId)]
        ).first.map { row in
            Challenge(
                message: try row.string("message"), expiresAt: try row.int("expires_at"),
                usedAt: row.optionalInt("used_at"), walletId: try row.string("id"), network: try row.string("network"),
                address: try row.string("wallet_address"))
        }
    }

    /// Spends the challenge and records the wallet's ownership as proven; `false` when a racing
    /// request spent it first.
    package func prove(challengeId: String, walletId: String, now: Int64) throws -> Bool {
        guard
            try connection.execute(
                "UPDATE wallet_ownership_challenges SET used_at = ? WHERE id = ? AND used_at IS NULL",
                [.integer(now), .text(challengeId)]) == 1
        else { return false }
        try connection.execute("UPDATE crypto_wallets SET verified_ownership = 1 WHERE id = ?", [.text(walletId)])
        return true
    }
}

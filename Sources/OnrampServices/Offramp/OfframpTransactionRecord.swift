import OnrampCore
import OnrampStore
import OnrampWire

/// A stored sell: what was sold at which quote, where the user sends the crypto, and where it stands.
package struct OfframpTransactionRecord: Sendable, Equatable {
    package var transactionId: String
    package var projectId: String
    package var partnerUserRef: String
    package var status: OfframpTransaction.Status
    package var asset: String
    package var network: String
    package var sellAmount: String
    package var cashoutCurrency: String
    package var subtotal: String
    package var coinbaseFee: String
    package var total: String
    package var unitPrice: String
    /// The cash-out method (`FIAT_WALLET`, `ACH_BANK_ACCOUNT`, `PAYPAL`).
    package var paymentMethod: String
    package var fromAddress: String
    /// The deposit address the user's crypto goes to.
    package var toAddress: String
    package var txHash: String?
    package var redirectUrl: String
    package var sandbox: Bool
    /// The end of the deposit window.
    package var expiresAt: Int64
    package var nextStepAt: Int64?
    package var createdAt: Int64
    package var updatedAt: Int64

    /// The sell transactions API's object (snake_case; amounts as `{value, currency}`).
    package var wire: OfframpTransactionObject {
        let cash = { (value: String) in OnrampTransaction.Amount(value: value, currency: cashoutCurrency) }
        return OfframpTransactionObject(
            transactionId: transactionId, status: status.rawValue, asset: asset, network: network,
            sellAmount: .init(value: sellAmount, currency: asset), total: cash(total), subtotal: cash(subtotal),
            coinbaseFee: cash(coinbaseFee), unitPrice: cash(unitPrice), paymentMethod: paymentMethod,
            fromAddress: fromAddress, toAddress: toAddress, txHash: txHash ?? "", redirectUrl: redirectUrl,
            partnerUserRef: partnerUserRef, createdAt: Timestamp.rfc3339(milliseconds: createdAt),
            updatedAt: Timestamp.rfc3339(milliseconds: updatedAt))
    }

    /// The `offramp.transaction.*` payload of `eventType` (cdp-sdk 1.51.0 `OfframpTransactionPayload`).
    package func webhookJSON(eventType: String) -> JSONValue {
        OfframpTransactionPayload(eventType: eventType, sell: wire).json
    }
}

/// The sell transactions table, on the transaction's connection.
package struct OfframpRepository {
    package let connection: any SQLConnection

    package func insert(_ sell: OfframpTransactionRecord) throws {
        try connection.execute(
            """
            INSERT INTO offramp_transactions (transaction_id, project_id, partner_user_ref, status, asset, network,
                sell_amount, cashout_currency, subtotal, coinbase_fee, total, unit_price, payment_method, from_address,
                to_address, tx_hash, redirect_url, sandbox, expires_at, next_step_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(sell.transactionId), .text(sell.projectId), .text(sell.partnerUserRef),
                .text(sell.status.rawValue),
                .text(sell.asset), .text(sell.network), .text(sell.sellAmount), .text(sell.cashoutCurrency),
                .text(sell.subtotal), .text(sell.coinbaseFee), .text(sell.total), .text(sell.unitPrice),
                .text(sell.paymentMethod), .text(sell.fromAddress), .text(sell.toAddress),
                sell.txHash.map(SQLValue.text) ?? .null, .text(sell.redirectUrl), .integer(sell.sandbox ? 1 : 0),
                .integer(sell.expiresAt), sell.nextStepAt.map(SQLValue.integer) ?? .null, .integer(sell.createdAt),
                .integer(sell.updatedAt),
            ])
    }

    package func find(id: String) throws -> OfframpTransactionRecord? {
        try connection.query("SELECT * FROM offramp_transactions WHERE transaction_id = ?", [.text(id)]).first.map(
            Self.record)
    }

    /// A page of the project's sells, newest first, optionally of one user and within `[from, until)`.
    package func list(
        projectId: String, partnerUserRef: String?, from: Int64?, until: Int64?, before cursor: (Int64, String)?,
        limit: Int
    ) throws -> [OfframpTransactionRecord] {
        var sql = "SELECT * FROM offramp_transactions WHERE project_id = ?"
        var parameters: [SQLValue] = [.text(projectId)]
        if let partnerUserRef {
            sql += " AND partner_user_ref = ?"
            parameters.append(.text(partnerUserRef))
        }
        if let from {
            sql += " AND created_at >= ?"
            parameters.append(.integer(from))
        }
        if let until {
            sql += " AND created_at < ?"
            parameters.append(.integer(until))
        }
        if let cursor {
            sql += " AND (created_at < ? OR (created_at = ? AND transaction_id < ?))"
            parameters += [.integer(cursor.0), .integer(cursor.0), .text(cursor.1)]
        }
        sql += " ORDER BY created_at DESC, transaction_id DESC LIMIT ?"
        parameters.append(.integer(Int64(limit)))
        return try connection.query(sql, parameters).map(Self.record)
    }

    package func count(projectId: String, partnerUserRef: String) throws -> Int64 {
        try connection.query(
            "SELECT COUNT(*) AS n FROM offramp_transactions WHERE project_id = ? AND partner_user_ref = ?",
            [.text(projectId), .text(partnerUserRef)]
        ).first?.int("n") ?? 0
    }

    /// Sells whose next step is due in their project's time (`now`: real time) and that no worker
    /// holds; each with its project.
    package func due(now: Int64, limit: Int) throws -> [(transactionId: String, projectId: String)] {
        try connection.query(
            """
            SELECT t.transaction_id, t.project_id FROM offramp_transactions t
            LEFT JOIN test_clocks c ON c.project_id = t.project_id
            WHERE \(TestClockRepository.due("t.next_step_at", clock: "c")) AND \(SettlementLease.isFree)
            ORDER BY t.next_step_at LIMIT ?
            """,
            [.integer(now), .integer(now), .integer(now), .integer(Int64(limit))]
        ).map { (try $0.string("transaction_id"), try $0.string("project_id")) }
    }

    /// Claims a due step until the real time `leaseUntil`; false when a worker holds it at the real
    /// time `now`.
    package func lease(_ sell: OfframpTransactionRecord, until leaseUntil: Int64, now: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE offramp_transactions SET lease_until = ? WHERE transaction_id = ? AND status = ? AND \(SettlementLease.isFree)",
            [.integer(leaseUntil), .text(sell.transactionId), .text(sell.status.rawValue), .integer(now)]) == 1
    }

    /// Writes the sell's new state if it is still `STARTED` under the lease `leasedUntil`, and releases it.
    package func finish(_ sell: OfframpTransactionRecord, leasedUntil: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE offramp_transactions SET status = ?, tx_hash = ?, next_step_at = NULL, updated_at = ?,
                lease_until = NULL
            WHERE transaction_id = ? AND status = ? AND lease_until = ?
            """,
            [
                .text(sell.status.rawValue), sell.txHash.map(SQLValue.text) ?? .null, .integer(sell.updatedAt),
                .text(sell.transactionId), .text(OfframpTransaction.Status.started.rawValue), .integer(leasedUntil),
            ]) == 1
    }

    private static func record(_ row: Row) throws -> OfframpTransactionRecord {
        guard let status = OfframpTransaction.Status(rawValue: try row.string("status")) else {
            throw StoreError(.typeMismatch, "unknown offramp status")
        }
        return OfframpTransactionRecord(
            transactionId: try row.string("transaction_id"), projectId: try row.string("project_id"),
            partnerUserRef: try row.string("partner_user_ref"), status: status, asset: try row.string("asset"),
            network: try row.string("network"), sellAmount: try row.string("sell_amount"),
            cashoutCurrency: try row.string("cashout_currency"), subtotal: try row.string("subtotal"),
            coinbaseFee: try row.string("coinbase_fee"), total: try row.string("total"),
            unitPrice: try row.string("unit_price"), paymentMethod: try row.string("payment_method"),
            fromAddress: try row.string("from_address"), toAddress: try row.string("to_address"),
            txHash: row.optionalString("tx_hash"), redirectUrl: try row.string("redirect_url"),
            sandbox: try row.int("sandbox") != 0, expiresAt: try row.int("expires_at"),
            nextStepAt: row.optionalInt("next_step_at"), createdAt: try row.int("created_at"),
            updatedAt: try row.int("updated_at"))
    }
}

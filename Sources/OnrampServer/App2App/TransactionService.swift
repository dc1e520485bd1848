import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore

/// Creates App2App transactions when the user confirms, and moves them through
/// `CREATED → IN_PROGRESS → SUCCESS | FAILED` with the settlement provider. Every state change and
/// its `onramp.transaction.*` events commit in one transaction; sandbox purchases create neither.
struct TransactionService: Sendable {
    let context: ServerContext
    let settlement: any SettlementProvider

    /// Records a confirmed purchase: the session outcome, and for live purchases the transaction and
    /// its `created` event. A concurrent second confirm changes nothing.
    func confirm(session: PurchaseSessionRepository.Record, purchase: PurchaseRequest, now: Int64) throws {
        let quote = try StoredQuote(stored: session.quote)
        let project = try context.database.read { try ProjectRepository(connection: $0).find(session.projectId) }
        let redirectTransactionId = context.ids.uuid()
        try context.database.transaction { connection in
            let sessions = PurchaseSessionRepository(connection: connection)
            guard !session.sandbox, let partnerUserRef = purchase.partnerUserRef else {
                _ = try sessions.finish(
                    token: session.token, outcome: "success", redirectTransactionId: redirectTransactionId,
                    transactionId: nil)
                return
            }
            let record = TransactionRecord(
                transactionId: context.ids.uuid(), projectId: session.projectId, sessionToken: session.token,
                partnerUserRef: partnerUserRef, quote: quote, purchase: purchase,
                paymentTotalUSD: paymentTotalUSD(quote), endPartnerName: project?.name ?? "",
                userId: Self.userId(projectId: session.projectId, partnerUserRef: partnerUserRef), now: now)
            guard
                try sessions.finish(
                    token: session.token, outcome: "success", redirectTransactionId: redirectTransactionId,
                    transactionId: record.transactionId)
            else { return }
            try record.insert(into: connection)
            let (_, events) = App2AppTransaction.create()
            try emit(events, for: record, connection: connection, now: now)
        }
    }

    /// Advances every transaction whose next step is due; returns how many moved.
    @discardableResult
    func advanceDueTransactions(limit: Int = 100) throws -> Int {
        let now = context.nowMilliseconds
        let due = try context.database.read { connection in
            try connection.query(
                """
                SELECT transaction_id FROM onramp_transactions
                WHERE next_step_at IS NOT NULL AND next_step_at <= ? ORDER BY next_step_at LIMIT ?
                """,
                [.integer(now), .integer(Int64(limit))]
            ).map { try $0.string("transaction_id") }
        }
        var moved = 0
        for id in due where try advance(transactionId: id, now: now) { moved += 1 }
        return moved
    }

    /// Takes one step for one transaction; `false` when another worker already took it.
    func advance(transactionId: String, now: Int64) throws -> Bool {
        try context.database.transaction { connection in
            guard
                let row = try connection.query(
                    "SELECT * FROM onramp_transactions WHERE transaction_id = ? AND next_step_at IS NOT NULL",
                    [.text(transactionId)]
                ).first
            else { return false }
            var record = try TransactionRecord(row: row)
            guard let status = App2AppTransaction.Status(rawValue: record.status) else { return false }
            var machine = App2AppTransaction(status: status)
            let events: [App2AppTransaction.DomainEvent]
            switch status {
            case .created:
                events = try machine.handle(.start)
                record.nextStepAt = now + Int64(context.settlementDelay * 1000)
            case .inProgress:
                switch settlement.settle(
                    reference: record.transactionId, network: record.purchaseNetwork, asset: record.purchaseCurrency,
                    amount: record.purchaseAmount, walletAddress: record.walletAddress,
                    partnerUserRef: record.partnerUserRef)
                {
                case .delivered(let txHash):
                    events = try machine.handle(.succeed(txHash: txHash))
                case .buyFailed:
                    events = try machine.handle(.fail(.buyFailed))
                case .sendFailed:
                    events = try machine.handle(.fail(.sendFailed))
                }
                record.completedAt = now
                record.nextStepAt = nil
            case .success, .failed:
                return false
            }
            record.status = machine.status.rawValue
            record.txHash = machine.txHash ?? ""
            record.failureReason = machine.failureReason?.rawValue
            record.updatedAt = now
            let changed = try connection.execute(
                """
                UPDATE onramp_transactions
                SET status = ?, tx_hash = ?, failure_reason = ?, updated_at = ?, completed_at = ?, next_step_at = ?
                WHERE transaction_id = ? AND status = ?
                """,
                [
                    .text(record.status), .text(record.txHash), record.failureReason.map(SQLValue.text) ?? .null,
                    .integer(now), record.completedAt.map(SQLValue.integer) ?? .null,
                    record.nextStepAt.map(SQLValue.integer) ?? .null, .text(transactionId), .text(status.rawValue),
                ])
            guard changed == 1 else { return false }
            try emit(events, for: record, connection: connection, now: now)
            return true
        }
    }

    private func emit(
        _ events: [App2AppTransaction.DomainEvent], for record: TransactionRecord, connection: any SQLConnection,
        now: Int64
    ) throws {
        for event in events {
            try Outbox.append(
                connection, id: context.ids.uuid(), projectId: record.projectId, family: .cdp, type: event.eventType,
                payload: record.webhookJSON(eventType: event.eventType), livemode: true, createdAtMilliseconds: now)
        }
    }

    private func paymentTotalUSD(_ quote: StoredQuote) -> String {
        if quote.paymentCurrency == "USD" { return quote.paymentTotal }
        guard let amount = try? DecimalAmount(parsing: quote.purchaseAmount, parameter: "purchaseAmount"),
            let price = try? context.catalogue.prices.price(of: quote.purchaseCurrency, in: "USD")
        else { return quote.paymentTotal }
        return (amount * price).string(places: 2)
    }

    /// A stable user id for a partner's user: the same `partnerUserRef` maps to the same id.
    static func userId(projectId: String, partnerUserRef: String) -> String {
        let digest = SHA256.hash(Array("user:\(projectId):\(partnerUserRef)".utf8))
        return IdGenerator.uuidString(from: Array(digest.prefix(16)))
    }
}

import Foundation
import OnrampCore
import OnrampCrypto
import OnrampStore

/// Creates transactions when the user confirms (App2App handoff or hosted onramp), and moves them through
/// `CREATED → IN_PROGRESS → SUCCESS | FAILED` with the settlement provider. Every state change and
/// its `onramp.transaction.*` events commit in one transaction; sandbox purchases create neither.
package struct TransactionService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    package let schedule: SettlementSchedule
    package let settlement: any SettlementProvider

    /// The service on the parts of `context` it uses, settling through `settlement`.
    package init(context: ServerContext, settlement: any SettlementProvider) {
        environment = context.environment
        catalogue = context.catalogue
        schedule = SettlementSchedule(context: context)
        self.settlement = settlement
    }

    /// Records a confirmed purchase: the session outcome, and for live purchases the transaction and
    /// its `created` event. A concurrent second confirm changes nothing.
    package func confirm(session: PurchaseSessionRepository.Record, purchase: PurchaseRequest, now: Int64) throws {
        let quote = try StoredQuote(stored: session.quote)
        let endPartnerName = try endPartnerName(projectId: session.projectId)
        let redirectTransactionId = ids.uuid()
        try database.transaction { connection in
            let sessions = PurchaseSessionRepository(connection: connection)
            guard !session.sandbox else {
                _ = try sessions.finish(
                    key: session.key, outcome: .success, redirectTransactionId: redirectTransactionId,
                    transactionId: nil)
                return
            }
            let transactionId = ids.uuid()
            guard
                try sessions.finish(
                    key: session.key, outcome: .success, redirectTransactionId: redirectTransactionId,
                    transactionId: transactionId)
            else { return }
            try insertTransaction(
                connection, transactionId: transactionId, projectId: session.projectId, reference: session.key,
                // Without a partnerUserRef the purchase still settles (and is listed for the project), but
                // the partner has nothing to match it by, as the seed warns.
                partnerUserRef: purchase.partnerUserRef ?? "", isAppToApp: true, quote: quote, purchase: purchase,
                endPartnerName: endPartnerName, now: now)
        }
    }

    /// The project's display name, which its transactions carry as `end_partner_name`.
    package func endPartnerName(projectId: String) throws -> String {
        try database.read { try ProjectRepository(connection: $0).find(projectId) }?.name ?? ""
    }

    /// Inserts a live purchase's transaction (`CREATED`, due for settlement) and its `created` event,
    /// inside the caller's database transaction. `reference` is the session that produced it (unique);
    /// `partnerId` the aggregator's end partner it is for.
    package func insertTransaction(
        _ connection: any SQLConnection, transactionId: String, projectId: String, reference: String,
        partnerUserRef: String, isAppToApp: Bool, quote: StoredQuote, purchase: PurchaseRequest,
        endPartnerName: String, partnerId: String? = nil, now: Int64
    ) throws {
        var record = TransactionRecord(
            transactionId: transactionId, projectId: projectId, sessionToken: reference,
            partnerUserRef: partnerUserRef, isAppToApp: isAppToApp, quote: quote, purchase: purchase,
            paymentTotalUSD: try paymentTotalUSD(quote), endPartnerName: endPartnerName,
            userId: Self.userId(projectId: projectId, partnerUserRef: partnerUserRef), now: now)
        record.partnerId = partnerId
        try record.insert(into: connection)
        let (_, events) = App2AppTransaction.create()
        try emit(events, for: record, connection: connection, now: now)
    }

    /// Up to `limit` of the project's transactions that `filter` keeps, newest first, after `after` when
    /// given, and how many the filter keeps in all (one read, so the two agree).
    package func page(
        projectId: String, filter: TransactionRepository.Filter, after: (createdAt: Int64, id: String)?, limit: Int
    ) throws -> (records: [TransactionRecord], total: Int64) {
        try database.read { connection in
            let listing = TransactionRepository(connection: connection, projectId: projectId, filter: filter)
            return (try listing.page(after: after, limit: limit), try listing.count())
        }
    }

    /// Advances every transaction whose next step is due; returns how many moved.
    @discardableResult
    package func advanceDueTransactions(limit: Int = 100) throws -> Int {
        let now = nowMilliseconds
        // Due in its project's time (a project whose test clock moved ahead settles as real time would),
        // and not leased to a worker in real time.
        let realNow = schedule.realNowMilliseconds
        let due = try database.read {
            try TransactionRecord.dueSteps(now: now, realNow: realNow, limit: limit, on: $0)
        }
        var moved = 0
        // Each claim reads the clock afresh: a lease timed from the batch's start could already have run
        // out behind slow settlements, letting another worker settle the same purchase concurrently.
        for step in due {
            let advanced = try schedule.bound(to: step.projectId) {
                try advance(transactionId: step.transactionId, now: nowMilliseconds)
            }
            if advanced { moved += 1 }
        }
        return moved
    }

    /// Takes a pending transaction's remaining steps now instead of when they come due (the console's
    /// "settle now"): the settlement provider decides the outcome as it would have. `true` when it was
    /// pending and has its outcome now; `false` when it is unknown or was already settled.
    package func settleNow(transactionId: String) throws -> Bool {
        try finishNow(transactionId: transactionId, forcing: nil)
    }

    /// Test mode: fails a pending transaction now, as a failed fiat purchase (`FAILURE_REASON_BUY_FAILED`), with
    /// the same steps and events as a real failure; the provider is not called. `false` when nothing was pending.
    package func failNow(transactionId: String) throws -> Bool {
        try finishNow(transactionId: transactionId, forcing: .buyFailed)
    }

    /// Takes the pending steps of a transaction now, with `forced` in place of the provider's outcome.
    private func finishNow(transactionId: String, forcing forced: SettlementResult?) throws -> Bool {
        let projectId = try database.read { try TransactionRecord.projectId(of: transactionId, on: $0) }
        guard let projectId else { return false }
        // In the project's time, as its worker would take the steps.
        return try schedule.bound(to: projectId) {
            try settleSteps(transactionId: transactionId, forcing: forced)
        }
    }

    private func settleSteps(transactionId: String, forcing forced: SettlementResult?) throws -> Bool {
        let pending = [App2AppTransaction.Status.created.rawValue, App2AppTransaction.Status.inProgress.rawValue]
        let final = [App2AppTransaction.Status.success.rawValue, App2AppTransaction.Status.failed.rawValue]
        let status = { try database.read { try TransactionRecord.status(of: transactionId, on: $0) } ?? "" }
        guard pending.contains(try status()) else { return false }
        // CREATED → IN_PROGRESS, then IN_PROGRESS → SUCCESS | FAILED: each step made due now and claimed
        // in one transaction, taking a lease over from the worker that holds it, as an expired lease
        // would (made due first and claimed after, the worker could lease it in between and this call
        // would report nothing pending while the worker settles). The provider is idempotent on the
        // reference, and only one outcome is recorded (the final update is conditional on the status),
        // so whichever of the two records first decides it.
        for _ in 0..<2 {
            _ = try advance(transactionId: transactionId, now: nowMilliseconds, forcing: forced, takingOver: true)
        }
        return final.contains(try status())
    }

    /// Takes one step for one transaction; `false` when another worker already took it. Settlement
    /// runs outside any database transaction, after this worker claimed the step with a lease (in real
    /// time, ``SettlementLease``), so two instances never send the same purchase twice. `forced` (the
    /// console's "fail now") replaces the provider; `takingOver` makes the step due now and frees its
    /// lease first, in the same transaction as the claim.
    package func advance(
        transactionId: String, now: Int64, forcing forced: SettlementResult? = nil, takingOver: Bool = false
    ) throws -> Bool {
        let claimed = try database.transaction { connection -> TransactionRecord? in
            if takingOver { try TransactionRecord.makeNextStepDue(transactionId, at: now, on: connection) }
            guard let record = try TransactionRecord.withDueStep(transactionId, at: now, on: connection) else {
                return nil
            }
            guard record.status == App2AppTransaction.Status.inProgress.rawValue else { return record }
            let realNow = schedule.realNowMilliseconds
            let leased = try TransactionRecord.leaseStep(
                transactionId, status: record.status, until: realNow + SettlementLease.milliseconds, realNow: realNow,
                on: connection)
            return leased ? record : nil
        }
        guard let claimed, let status = App2AppTransaction.Status(rawValue: claimed.status) else { return false }
        var machine = App2AppTransaction(status: status)
        var record = claimed
        let events: [App2AppTransaction.DomainEvent]
        switch status {
        case .created:
            events = try machine.handle(.start)
            record.nextStepAt = schedule.nextStep(after: now)
        case .inProgress:
            let result =
                forced
                ?? settlement.settle(
                    reference: record.transactionId, network: record.purchaseNetwork, asset: record.purchaseCurrency,
                    amount: record.purchaseAmount, walletAddress: record.walletAddress,
                    partnerUserRef: record.partnerUserRef)
            switch result {
            case .delivered(let txHash):
                events = try machine.handle(.succeed(txHash: txHash))
            case .buyFailed:
                events = try machine.handle(.fail(.buyFailed))
            case .sendFailed:
                events = try machine.handle(.fail(.sendFailed))
            }
            record.completedAt = nowMilliseconds
            record.nextStepAt = nil
        case .success, .failed:
            return false
        }
        record.status = machine.status.rawValue
        record.txHash = machine.txHash ?? ""
        record.failureReason = machine.failureReason?.rawValue
        record.updatedAt = record.completedAt ?? now
        return try database.transaction { connection in
            guard try record.recordStep(from: status.rawValue, on: connection) else { return false }
            try emit(events, for: record, connection: connection, now: record.updatedAt)
            return true
        }
    }

    private func emit(
        _ events: [App2AppTransaction.DomainEvent], for record: TransactionRecord, connection: any SQLConnection,
        now: Int64
    ) throws {
        for event in events {
            try Outbox.append(
                connection, id: ids.timeOrderedUUID(milliseconds: now), projectId: record.projectId, family: .cdp,
                type: event.eventType,
                payload: record.webhookJSON(eventType: event.eventType), livemode: true, createdAtMilliseconds: now)
        }
    }

    /// The fee-inclusive total in USD: the payment total converted at the ratio of the asset's USD price
    /// to its price in the payment currency (a validated catalogue has a USD price for every priced asset).
    private func paymentTotalUSD(_ quote: StoredQuote) throws -> String {
        if quote.paymentCurrency == "USD" { return quote.paymentTotal }
        let total = try DecimalAmount(parsing: quote.paymentTotal, parameter: "paymentTotal")
        let prices = catalogue.prices
        let usd = try prices.price(of: quote.purchaseCurrency, in: "USD")
        let local = try prices.price(of: quote.purchaseCurrency, in: quote.paymentCurrency)
        return (total * usd).divided(by: local, toPlaces: 2, mode: .bankers).string(places: 2)
    }

    /// A stable user id for a partner's user: the same `partnerUserRef` maps to the same id.
    package static func userId(projectId: String, partnerUserRef: String) -> String {
        let digest = SHA256.hash(Array("user:\(projectId):\(partnerUserRef)".utf8))
        return IdGenerator.uuidString(from: Array(digest.prefix(16)))
    }
}

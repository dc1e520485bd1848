import OnrampCore
import OnrampCrypto
import OnrampRuntime
import OnrampStore
import OnrampWire

/// The offramp (sell) sandbox: the sell page a `/onramp/v1/token` opens (Coinbase's `/v3/sell/input`),
/// where the user picks what to sell and presses "Cash out now"; the sell then waits `STARTED` at a deposit
/// address until the crypto arrives (the simulator receives it after the settlement delay: a
/// `partnerUserRef` ending in `-fail-send` fails, one ending in `-no-send` never sends and expires after 30
/// minutes). Every state change and its `offramp.transaction.*` events commit together; `sandbox-` sells
/// send no webhooks.
package struct OfframpService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    package let schedule: SettlementSchedule
    /// Where the sell page is served (`http://127.0.0.1:8080`).
    package let publicBaseURL: String

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        catalogue = context.catalogue
        schedule = SettlementSchedule(context: context)
        publicBaseURL = context.publicBaseURL
    }

    package static let pagePath = "/v3/sell/input"
    /// The cash-out methods (Coinbase's `defaultCashoutMethod` names, `CRYPTO_ACCOUNT` the user's crypto balance)
    /// and the fee schedule each uses.
    package static let cashoutMethods: [CashoutMethod] = [
        .init(name: "FIAT_WALLET", type: .fiatWallet), .init(name: "ACH_BANK_ACCOUNT", type: .ach),
        .init(name: "PAYPAL", type: .paypal),
        .init(name: "CRYPTO_ACCOUNT", type: .cryptoWallet),
    ]

    /// The other `paymentMethod` values a Sell Quote takes (the API reference's enum, and the demo application's
    /// `SEPA_BANK_ACCOUNT` and `EFT_BANK_ACCOUNT`): quoted on the fees of the nearest method the catalogue has,
    /// but nothing is paid out to them here, so the sell page refuses a quote made for one.
    package static let quotedOnlyMethods: [CashoutMethod] = [
        .init(name: "UNSPECIFIED", type: .fiatWallet), .init(name: "CARD", type: .card),
        .init(name: "GUEST_CHECKOUT_CARD", type: .card), .init(name: "APPLE_PAY", type: .applePay),
        .init(name: "GUEST_CHECKOUT_APPLE_PAY", type: .applePay), .init(name: "RTP", type: .ach),
        .init(name: "SEPA_BANK_ACCOUNT", type: .fiatWallet),
        .init(name: "EFT_BANK_ACCOUNT", type: .fiatWallet),
    ]

    /// Why the sell page cannot cash out to `name`, a method only quoted; nil for a cash-out method.
    package static func cashoutRefusal(_ name: String) -> String? {
        guard cashoutMethod(name) == nil else { return nil }
        return "This sandbox cannot pay out to \(name); quote again with one of "
            + cashoutMethods.map(\.name).joined(separator: ", ") + "."
    }

    /// The address formats of the networks a sell can receive on (the simulator makes their deposit addresses).
    package static let receivableFormats: Set<AddressFormat> = [.evm, .solana, .hex32]

    package static func cashoutMethod(_ name: String) -> PaymentMethodType? {
        cashoutMethods.first { $0.name == name }?.type
    }

    /// Prices a sell through a cash-out method or, with `quotingOnly`, any documented Sell Quote method;
    /// catalogue refusals name the field.
    package func quote(asset: String, amount: String, currency: String, method: String, quotingOnly: Bool = false)
        throws(OnrampError) -> SellQuote
    {
        let methods = Self.cashoutMethods + (quotingOnly ? Self.quotedOnlyMethods : [])
        guard let type = methods.first(where: { $0.name == method })?.type else {
            throw OnrampError.refusal(
                "invalid_request", "paymentMethod must be one of \(methods.map(\.name).joined(separator: ", ")).",
                parameter: "paymentMethod")
        }
        do {
            let sold = try DecimalAmount(parsing: amount, parameter: "sellAmount")
            return try SellQuote(
                catalogue: catalogue, asset: asset, amount: sold, currency: currency, method: type)
        } catch let error as OnrampError {
            throw error
        } catch {
            throw OnrampError.refusal("invalid_request", "The sell is invalid.")
        }
    }

    /// The amount of `asset` worth `fiat` (`presetFiatAmount`) in `currency` at the catalogue's price, rounded up
    /// to the asset's decimals so the sell is worth at least that much.
    package func cryptoAmount(worth fiat: String, of asset: String, in currency: String) throws -> String {
        guard let value = try? DecimalAmount(parsing: fiat), value.isPositive else {
            throw OnrampError.refusal(
                "invalid_request", "presetFiatAmount must be a positive decimal amount (25.00).",
                parameter: "presetFiatAmount")
        }
        let sold = try catalogue.asset(asset)
        let price = try catalogue.prices.price(of: sold.symbol, in: try catalogue.fiatCurrency(currency).code)
        return value.divided(by: price, toPlaces: sold.decimals, mode: .up).description
    }

    /// The combinations of the token that can be sold here (networks whose deposit addresses the
    /// simulator can make), in the page's order: the page's `choice` indexes this list.
    package func sellableChoices(_ session: HostedOnrampSession) -> [HostedOnrampSession.Choice] {
        session.choices(in: catalogue).filter { Self.receivableFormats.contains($0.network.addressFormat) }
    }

    /// A deposit address of the network's shape for the user's crypto (the simulator receives on it).
    package func depositAddress(for network: Network) throws(OnrampError) -> String {
        let bytes = ids.randomBytes(32)
        switch network.addressFormat {
        case .evm: return "0x" + Hex.encode(Array(bytes.prefix(20)))
        case .solana: return Base58.encode(bytes)
        case .hex32: return "0x" + Hex.encode(bytes)
        case .bitcoin, .stellar, .xrpl:
            throw OnrampError.refusal(
                "invalid_request", "Selling on \(network.id) is not offered here.", parameter: "network")
        }
    }

    /// Records the user's "Cash out now": the sell, its `created` event and the page's outcome, together;
    /// nil when the page was already finished (a second press records nothing).
    @discardableResult
    package func cashOut(
        session: HostedOnrampSession, choice: HostedOnrampSession.Choice, quote: SellQuote, method: String,
        partnerUserRef: String, redirectUrl: String
    ) throws -> OfframpTransactionRecord? {
        let sell = try newSell(
            projectId: session.projectId, choice: choice, quote: quote, method: method,
            partnerUserRef: partnerUserRef, redirectUrl: redirectUrl)
        return try database.transaction { connection in
            guard
                try HostedOnrampRepository(connection: connection).finish(
                    id: session.id, outcome: .success, transactionId: sell.transactionId)
            else { return nil }
            try OfframpRepository(connection: connection).insert(sell)
            try emit(OfframpTransaction.start().events, for: sell, connection: connection)
            return sell
        }
    }

    /// Starts a sell without a sell page (`onramp trigger`): the sell waiting at its deposit address and its
    /// `created` event, together; its due step comes at once when `dueNow`.
    package func startSell(
        projectId: String, choice: HostedOnrampSession.Choice, quote: SellQuote, method: String,
        partnerUserRef: String, redirectUrl: String, dueNow: Bool
    ) throws -> OfframpTransactionRecord {
        var sell = try newSell(
            projectId: projectId, choice: choice, quote: quote, method: method, partnerUserRef: partnerUserRef,
            redirectUrl: redirectUrl)
        if dueNow { sell.nextStepAt = sell.createdAt }
        try database.transaction { connection in
            try OfframpRepository(connection: connection).insert(sell)
            try emit(OfframpTransaction.start().events, for: sell, connection: connection)
        }
        return sell
    }

    /// A new sell of `quote`, waiting `STARTED` at a fresh deposit address until its step is due.
    private func newSell(
        projectId: String, choice: HostedOnrampSession.Choice, quote: SellQuote, method: String,
        partnerUserRef: String, redirectUrl: String
    ) throws -> OfframpTransactionRecord {
        let now = nowMilliseconds
        let expiresAt = now + OfframpTransaction.depositWindowMilliseconds
        return OfframpTransactionRecord(
            transactionId: ids.uuid().lowercased(), projectId: projectId, partnerUserRef: partnerUserRef,
            status: .started, asset: choice.asset.symbol, network: choice.network.id,
            sellAmount: quote.sellAmount.amount.description, cashoutCurrency: quote.cashoutTotal.currency,
            subtotal: quote.text(quote.cashoutSubtotal), coinbaseFee: quote.text(quote.coinbaseFee),
            total: quote.text(quote.cashoutTotal), unitPrice: quote.text(quote.unitPrice),
            paymentMethod: method, fromAddress: choice.address, toAddress: try depositAddress(for: choice.network),
            txHash: nil, redirectUrl: redirectUrl, sandbox: partnerUserRef.hasPrefix(PurchaseRequest.sandboxPrefix),
            expiresAt: expiresAt,
            nextStepAt: partnerUserRef.hasSuffix("-no-send") ? expiresAt : schedule.nextStep(after: now),
            createdAt: now, updatedAt: now)
    }

    /// A project's sells, newest first, from one snapshot: up to `limit` of them (of `partnerUserRef`'s
    /// when given, created in `from..<until`, before the `cursor`'s (created, id)), and with a
    /// `partnerUserRef` the count of all of that user's sells.
    package func sells(
        projectId: String, partnerUserRef: String?, from: Int64?, until: Int64?, before cursor: (Int64, String)?,
        limit: Int
    ) throws -> (page: [OfframpTransactionRecord], total: Int64?) {
        try database.read { connection in
            let sells = OfframpRepository(connection: connection)
            let page = try sells.list(
                projectId: projectId, partnerUserRef: partnerUserRef, from: from, until: until, before: cursor,
                limit: limit)
            return (page, try partnerUserRef.map { try sells.count(projectId: projectId, partnerUserRef: $0) })
        }
    }

    /// Takes the due step of every waiting sell: the deposit arrives, fails, or the window closes.
    @discardableResult
    package func advanceDueSells(limit: Int = 100) throws -> Int {
        let due = try database.read {
            try OfframpRepository(connection: $0).due(now: schedule.realNowMilliseconds, limit: limit)
        }
        var moved = 0
        for (id, projectId) in due {
            do {
                // In its project's time, as the sell's due time and window were set.
                if try schedule.bound(to: projectId, { try step(id) }) { moved += 1 }
            } catch {
                AccessLog.shared.error("offramp \(id) step failed: \(error)")
            }
        }
        return moved
    }

    /// Takes waiting sell `sellId`'s step now, whatever its due time (the console's "Settle now" and "Fail
    /// now"): the deposit arrives as the simulator decides, or with `forcing` the sell fails; false when the sell
    /// is not waiting. In the sell's project's time, with its events, as the worker's step.
    package func finishNow(sellId: String, forcing: SettlementResult?) throws -> Bool {
        guard let sell = try database.read({ try OfframpRepository(connection: $0).find(id: sellId) }) else {
            return false
        }
        return try schedule.bound(to: sell.projectId) { try step(sellId, dueNow: true, failing: forcing != nil) }
    }

    /// Takes sell `id`'s step when it is due (or at once with `dueNow`): its deposit arrives, it fails (a
    /// `-fail-send` user, or `failing`), or its window has closed.
    private func step(_ id: String, dueNow: Bool = false, failing: Bool = false) throws -> Bool {
        let now = nowMilliseconds
        let realNow = schedule.realNowMilliseconds
        let leaseUntil = realNow + SettlementLease.milliseconds
        let claimed = try database.transaction { connection -> OfframpTransactionRecord? in
            let sells = OfframpRepository(connection: connection)
            guard let sell = try sells.find(id: id), sell.status == .started, let next = sell.nextStepAt,
                dueNow || next <= now, try sells.lease(sell, until: leaseUntil, now: realNow)
            else { return nil }
            return sell
        }
        guard let claimed else { return false }
        var machine = OfframpTransaction(status: claimed.status)
        let events: [OfframpTransaction.DomainEvent]
        if now >= claimed.expiresAt {
            events = try machine.handle(.expire)
        } else if failing || claimed.partnerUserRef.hasSuffix("-fail-send") {
            events = try machine.handle(.fail)
        } else {
            // The deposit's hash, shaped like the network's, as the simulator makes them (stable per sell).
            let arrival = SimulatedSettlement(catalogue: catalogue).settle(
                reference: claimed.transactionId, network: claimed.network, asset: claimed.asset,
                amount: claimed.sellAmount, walletAddress: claimed.toAddress, partnerUserRef: "")
            guard case .delivered(let hash) = arrival else { return false }
            events = try machine.handle(.depositReceived(txHash: hash))
        }
        var done = claimed
        done.status = machine.status
        done.txHash = machine.txHash
        done.updatedAt = nowMilliseconds
        return try database.transaction { connection in
            guard try OfframpRepository(connection: connection).finish(done, leasedUntil: leaseUntil) else {
                return false
            }
            try emit(events, for: done, connection: connection)
            return true
        }
    }

    private func emit(
        _ events: [OfframpTransaction.DomainEvent], for sell: OfframpTransactionRecord, connection: any SQLConnection
    ) throws {
        guard !sell.sandbox else { return }
        for event in events {
            try Outbox.append(
                connection, id: ids.timeOrderedUUID(milliseconds: sell.updatedAt), projectId: sell.projectId,
                family: .cdp, type: event.eventType,
                payload: sell.webhookJSON(eventType: event.eventType), livemode: true,
                createdAtMilliseconds: sell.updatedAt)
        }
    }
}

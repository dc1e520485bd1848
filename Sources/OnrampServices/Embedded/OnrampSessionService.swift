import Foundation
import OnrampCore
import OnrampStore
import OnrampWire

/// Creates, quotes, checks out and fulfils onramp sessions. Every status change and its
/// `crypto.onramp_session.updated` event commit in one transaction; creation emits no event.
package struct OnrampSessionService: Sendable, UsesServiceEnvironment {
    /// The sandbox liquidity partner refuses purchases above this many US dollars (test keys only).
    package static let sandboxLimitUSD = DecimalAmount(exactly: 100)
    /// Sandbox pairs: USDC on these networks.
    package static let sandboxNetworks: Set<String> = ["solana", "ethereum", "base"]
    /// A KYC first name that makes the sandbox risk rules demand an identity challenge (L2).
    package static let riskChallengeFirstName = "Challenge"

    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    package let schedule: SettlementSchedule
    /// Where the 3-D Secure test page is served (`http://127.0.0.1:8080`).
    package let publicBaseURL: String
    package let settlement: any SettlementProvider
    package let policy = KYCPolicy()

    /// The service on the parts of `context` it uses, fulfilling through `settlement`.
    package init(context: ServerContext, settlement: any SettlementProvider) {
        environment = context.environment
        catalogue = context.catalogue
        schedule = SettlementSchedule(context: context)
        publicBaseURL = context.publicBaseURL
        self.settlement = settlement
    }

    /// Creates a session for `request`'s purchase, quoted, `requires_payment` when the customer's wallet
    /// is registered (`initialized` until then). Creation emits no event.
    package func create(_ request: OnrampSessionCreation, caller: StripeCaller, grant: OAuthTokens.Grant) throws
        -> OnrampSessionRecord
    {
        let purchase = request.purchase
        let network = purchase.destinationNetwork
        // One transaction reads what the checks need (the customer, its payment method and whether its
        // wallet is on file; three statements in one round trip on PostgreSQL, none depending on another)
        // and inserts the session: a refusal rolls it back with nothing written.
        return try database.transaction { connection in
            let (foundCustomer, token, wallet) = try connection.run(
                CryptoCustomerRepository.lookup(id: request.customerId, projectId: grant.projectId),
                PaymentMethodRepository.tokenLookup(id: purchase.paymentToken, customerId: request.customerId),
                CryptoWalletRepository.lookup(
                    customerId: request.customerId, network: network, address: purchase.walletAddress))
            let customer = try owned(foundCustomer, grant: grant)
            let storedMethod = token?.method
            let hasWallet = wallet != nil
            if !caller.livemode && !(purchase.destinationCurrency == "usdc" && Self.sandboxNetworks.contains(network)) {
                throw pairError("Sandbox pairs are usdc on solana, ethereum and base.")
            }
            guard let method = storedMethod else {
                throw OnrampError.missing("payment_token", parameter: "payment_token")
            }
            let quote = try quote(purchase, method: method.type)
            do {
                try catalogue.validateAddress(purchase.walletAddress, network: network, parameter: "wallet_address")
            } catch let error as OnrampError {
                throw OnrampError.refusal(
                    "crypto_invalid_wallet_address", error.developerMessage, parameter: "wallet_address")
            }
            if let refusal = kycRefusal(customer, amount: quote.sourceTotalAmount, method: method.type) {
                throw refusal
            }
            let now = nowMilliseconds
            // Time-ordered (its `created` is public anyway): sessions are appended at the end of the
            // key's index, where random ids dirtied a page of it each.
            let id = ids.timeOrderedID(prefix: IdPrefix.onrampSession, milliseconds: now)
            var machine = OnrampSession()
            _ = try machine.handle(hasWallet ? .ready : .blocked(.missingConsumerWallet))
            let record = OnrampSessionRecord(
                id: id, projectId: caller.projectId, customerId: customer.id,
                clientSecret: ids.clientSecret(for: id),
                livemode: caller.livemode, machine: machine,
                details: OnrampSessionDetails(purchase: purchase, quoted: .init(quote)),
                quoteExpiresAt: Timestamp.milliseconds(quote.expiresAt), now: now)
            try record.insert(connection)
            return record
        }
    }

    /// The caller's session `id`.
    package func session(id: String, caller: StripeCaller) throws -> OnrampSessionRecord? {
        try database.read {
            try OnrampSessionRecord.find($0, id: id, projectId: caller.projectId, livemode: caller.livemode)
        }
    }

    /// The PaymentIntent of the caller's session behind intent `id`, read in one transaction with its method.
    package func paymentIntent(id: String, caller: StripeCaller) throws -> PaymentIntentObject? {
        guard let sessionId = PaymentIntentObject.sessionId(ofIntent: id) else { return nil }
        return try database.read { connection in
            guard
                let session = try OnrampSessionRecord.find(
                    connection, id: sessionId, projectId: caller.projectId, livemode: caller.livemode)
            else { return nil }
            let method = try PaymentMethodRepository(connection: connection).token(
                id: session.details.purchase.paymentToken, customerId: session.customerId
            ).map { (id: $0.paymentMethodId, method: $0.method) }
            let decimals = (try? catalogue.fiatCurrency(session.details.purchase.sourceCurrency))?.decimals
            return PaymentIntentObject(session: session, paymentMethod: method, currencyDecimals: decimals ?? 2)
        }
    }

    /// One page of the caller's sessions and whether more follow; `nil` when the cursor is not one of them.
    package func list(_ query: OnrampSessionListQuery, caller: StripeCaller) throws
        -> (sessions: [OnrampSessionRecord], hasMore: Bool)?
    {
        try database.read { connection in
            try OnrampSessionRepository(connection: connection, projectId: caller.projectId, livemode: caller.livemode)
                .page(query.filter, from: query.anchor, limit: query.limit)
        }
    }

    /// Refreshes the quote (clears `charged_with_expired_quote`) and re-checks the wallet.
    package func refreshQuote(id: String, caller: StripeCaller, grant: OAuthTokens.Grant) throws -> OnrampSessionRecord
    {
        try update(id: id, caller: caller, grant: grant) { record, parties in
            guard !record.machine.status.isTerminal, record.machine.status != .fulfillmentProcessing else {
                throw OnrampError.refusal(
                    "crypto_onramp_session_not_quotable", "The session is \(record.machine.status.rawValue).")
            }
            let quote = try quote(record.details.purchase, method: parties.method?.type ?? .card)
            record.details.quoted = .init(quote)
            record.quoteExpiresAt = Timestamp.milliseconds(quote.expiresAt)
            var events = try record.machine.handle(.quoteRefreshed)
            if record.machine.status == .initialized, blocker(record, parties) == nil {
                events += try record.machine.handle(.ready)
            }
            return events
        }
    }

    /// Checkout: re-checks KYC and wallet, the quote's expiry and the sandbox limit, then charges the
    /// payment method (3-D Secure and ACH mandates may need the user first; check out again after).
    package func checkout(_ request: OnrampSessionCheckout, id: String, caller: StripeCaller, grant: OAuthTokens.Grant)
        throws -> OnrampSessionRecord
    {
        try update(id: id, caller: caller, grant: grant) { record, parties in
            if request.acceptsMandate { record.mandateAccepted = true }
            guard record.machine.status == .initialized || record.machine.status == .requiresPayment else {
                if record.machine.status == .rejected {
                    throw OnrampError.refusal(
                        "crypto_onramp_session_rejected",
                        "The session was rejected: \(record.machine.lastError?.rawValue ?? "blocked").")
                }
                return []
            }
            var events: [OnrampSession.DomainEvent] = []
            // The checks and the charge look at the same payment method, read once with the session.
            let blocker = blocker(record, parties)
            if record.machine.status == .initialized {
                if let blocker { return try record.machine.handle(.blocked(blocker)) }
                events += try record.machine.handle(.ready)
            }
            let expired = nowMilliseconds >= record.quoteExpiresAt
            let outcome = CheckoutOutcome.evaluate(blocker: blocker, quoteExpired: expired) {
                charge(&record, method: parties.method)
            }
            events += try record.machine.handle(.checkout(outcome))
            if record.machine.status == .fulfillmentProcessing {
                record.fulfillDueAt = schedule.nextStep(after: nowMilliseconds)
            }
            return events
        }
    }

    /// Fulfils up to `limit` due sessions, each in its project's time (a live one in real time), with
    /// two transactions per round however many sessions it takes: one claims them with a lease
    /// (``SettlementLease``, in real time) so only one worker (instance) settles each, the provider
    /// settles them outside any transaction, and one records the outcomes with their events. A
    /// settlement starts only while its lease has more than half its time left: behind a slow provider
    /// the round records what is settled, gives back the other leases (a third transaction), and the
    /// next round claims them afresh. When a round's claim or record transaction fails, its sessions
    /// are claimed or recorded one transaction each, and the first failure is thrown once the others are
    /// done. A worker that dies is retried with the same reference when the lease ends; the provider
    /// is idempotent on it, and the first outcome recorded stands. Returns how many sessions were due.
    @discardableResult
    package func fulfilDueSessions(limit: Int = 100) throws -> Int {
        let realNow = schedule.realNowMilliseconds
        let due = try database.read {
            try OnrampSessionRecord.dueFulfilments(now: nowMilliseconds, realNow: realNow, limit: limit, on: $0)
        }
        var pending = due[...]
        var firstFailure: (any Error)?
        while !pending.isEmpty {
            let claimedAt = schedule.realNowMilliseconds
            let claimed = writeTogetherOrAlone(pending, firstFailure: &firstFailure) { session, connection in
                try TestClocks.bound(offsetMilliseconds: session.clockOffset) {
                    try claim(session.id, projectId: session.projectId, realNow: claimedAt, on: connection)
                }.map { (session, $0) }
            }
            var outcomes: [(OnrampSessionRecord.DueFulfilment, SettlementResult)] = []
            for (session, record) in claimed {
                let leaseAge = schedule.realNowMilliseconds - claimedAt
                guard outcomes.isEmpty || leaseAge < SettlementLease.milliseconds / 2 else { break }
                outcomes.append((session, settle(record)))
            }
            let unsettled = claimed.dropFirst(outcomes.count).map(\.0)
            _ = writeTogetherOrAlone(outcomes, firstFailure: &firstFailure) { outcome, connection in
                let (session, result) = outcome
                return try TestClocks.bound(offsetMilliseconds: session.clockOffset) {
                    try recordOutcome(result, of: session.id, projectId: session.projectId, on: connection)
                }
            }
            if !unsettled.isEmpty {
                try database.transaction { connection in
                    for session in unsettled {
                        try OnrampSessionRecord.releaseFulfilment(
                            connection, id: session.id, leasedUntil: claimedAt + SettlementLease.milliseconds)
                    }
                }
            }
            pending = unsettled[...]
        }
        if let firstFailure { throw firstFailure }
        return due.count
    }

    /// Runs `write` for every item in one transaction, or, when that transaction fails, for each item
    /// in a transaction of its own, so an item that cannot be written holds up only itself (its lease
    /// runs out and a later round retries it). Returns what the writes returned, without the nils and
    /// the failures; the first failure is kept in `firstFailure` for the caller to report.
    private func writeTogetherOrAlone<Item, Value>(
        _ items: some Collection<Item>, firstFailure: inout (any Error)?,
        _ write: (Item, any SQLConnection) throws -> Value?
    ) -> [Value] {
        guard !items.isEmpty else { return [] }
        do {
            return try database.transaction { connection in try items.compactMap { try write($0, connection) } }
        } catch {
            guard items.count > 1 else {
                firstFailure = firstFailure ?? error
                return []
            }
        }
        var values: [Value] = []
        for item in items {
            do {
                if let value = try database.transaction({ try write(item, $0) }) { values.append(value) }
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        return values
    }

    /// Takes a test-mode session's fulfilment now instead of when it comes due (the console's "settle
    /// now"), or with `forced` in place of the provider's outcome ("fail now"), in its project's time,
    /// through the same steps and events. `false` when the session is not being fulfilled or is live.
    package func finishNow(sessionId: String, forcing forced: SettlementResult?) throws -> Bool {
        let session = try database.read { try OnrampSessionRecord.find(anyProject: $0, id: sessionId) }
        guard let session, !session.livemode, session.machine.status == .fulfillmentProcessing else { return false }
        return try schedule.bound(to: session.projectId) {
            // Claimed whether or not it is due or leased, in the claim's one transaction, so no worker
            // slips in between; the first outcome recorded stands.
            let projectId = session.projectId
            let realNow = schedule.realNowMilliseconds
            guard
                let record = try database.transaction({ connection in
                    try claim(sessionId, projectId: projectId, realNow: realNow, takingOver: true, on: connection)
                })
            else { return false }
            let result = forced ?? settle(record)
            return try database.transaction { connection in
                try recordOutcome(result, of: sessionId, projectId: projectId, on: connection)
            }
        }
    }

    /// Leases the session's fulfilment on `connection` until the lease's length after `realNow` when
    /// it is due in the bound project's time and not leased (or, `takingOver`, whenever it is being
    /// fulfilled); the session as claimed, or nil.
    private func claim(
        _ id: String, projectId: String, realNow: Int64, takingOver: Bool = false, on connection: any SQLConnection
    ) throws -> OnrampSessionRecord? {
        guard let record = try OnrampSessionRecord.find(connection, id: id, projectId: projectId),
            record.machine.status == .fulfillmentProcessing, let due = record.fulfillDueAt
        else { return nil }
        let leaseUntil = realNow + SettlementLease.milliseconds
        if takingOver {
            return try OnrampSessionRecord.takeOver(connection, id: id, until: leaseUntil) ? record : nil
        }
        guard due <= nowMilliseconds else { return nil }
        let leased = try OnrampSessionRecord.leaseFulfilment(
            connection, id: id, dueAt: due, until: leaseUntil, realNow: realNow)
        return leased ? record : nil
    }

    /// The provider's outcome for a claimed session (idempotent on the session id).
    private func settle(_ record: OnrampSessionRecord) -> SettlementResult {
        settlement.settle(
            reference: record.id, network: record.details.purchase.destinationNetwork,
            asset: record.details.purchase.destinationCurrency, amount: record.details.quoted.destinationAmount,
            walletAddress: record.details.purchase.walletAddress, partnerUserRef: record.customerId)
    }

    /// Records `result` on `connection` with its event, in the bound project's time, if the session is
    /// still being fulfilled; `true` when this call recorded it.
    private func recordOutcome(
        _ result: SettlementResult, of id: String, projectId: String, on connection: any SQLConnection
    ) throws -> Bool {
        guard var record = try OnrampSessionRecord.find(connection, id: id, projectId: projectId),
            record.machine.status == .fulfillmentProcessing
        else { return false }
        let events: [OnrampSession.DomainEvent]
        switch result {
        case .delivered(let hash):
            events = try record.machine.handle(.fulfillmentSucceeded(transactionID: hash))
        case .buyFailed, .sendFailed: events = try record.machine.handle(.fulfillmentFailed)
        }
        record.fulfillDueAt = nil
        record.updatedAt = nowMilliseconds
        try record.save(connection, events: events, ids: ids)
        return true
    }

    /// The customer `id` when the OAuth grant's consumer owns it.
    package func ownedCustomer(_ id: String, grant: OAuthTokens.Grant) throws -> CryptoCustomer {
        try database.read { try ownedCustomer(id, grant: grant, on: $0) }
    }

    /// The customer `id` when the OAuth grant's consumer owns it, read on `connection`.
    private func ownedCustomer(_ id: String, grant: OAuthTokens.Grant, on connection: any SQLConnection) throws
        -> CryptoCustomer
    {
        try owned(CryptoCustomerRepository.find(connection, id: id, projectId: grant.projectId), grant: grant)
    }

    /// `customer` (found in the grant's project) when the OAuth grant's consumer owns it.
    private func owned(_ customer: CryptoCustomer?, grant: OAuthTokens.Grant) throws -> CryptoCustomer {
        guard let customer, customer.consumerId == grant.consumerId else {
            throw OnrampError.missing("crypto customer", parameter: "crypto_customer_id")
        }
        return customer
    }

    private func update(
        id: String, caller: StripeCaller, grant: OAuthTokens.Grant,
        _ change: (inout OnrampSessionRecord, SessionParties) throws -> [OnrampSession.DomainEvent]
    ) throws -> OnrampSessionRecord {
        try database.transaction { connection in
            guard
                var record = try OnrampSessionRecord.find(
                    connection, id: id, projectId: caller.projectId, livemode: caller.livemode, locking: true)
            else {
                throw OnrampError.missing("crypto_onramp_session")
            }
            // What the change checks is read on this transaction's connection (a second pooled connection
            // taken while this one is held can starve the pool, and would read outside the transaction),
            // in one batch: the customer, the payment method behind the token and whether the wallet is
            // registered. A refusal (another consumer's session) rolls the transaction back with nothing
            // written.
            let purchase = record.details.purchase
            let (customer, token, wallet) = try connection.run(
                CryptoCustomerRepository.lookup(id: record.customerId, projectId: grant.projectId),
                PaymentMethodRepository.tokenLookup(id: purchase.paymentToken, customerId: record.customerId),
                CryptoWalletRepository.lookup(
                    customerId: record.customerId, network: purchase.destinationNetwork, address: purchase.walletAddress
                ))
            let parties = SessionParties(
                customer: try owned(customer, grant: grant), method: token?.method, walletRegistered: wallet != nil)
            let events = try change(&record, parties)
            record.updatedAt = nowMilliseconds
            try record.save(connection, events: events, ids: ids)
            return record
        }
    }

    /// What a session's checks read beside it (``update(id:caller:grant:_:)``): its customer, the
    /// payment method behind its payment token (nil when the token is gone) and whether its wallet is
    /// registered.
    private struct SessionParties {
        let customer: CryptoCustomer
        let method: TestPaymentMethod?
        let walletRegistered: Bool
    }

    /// The retryable or terminal problem that stops checkout before any charge.
    private func blocker(_ record: OnrampSessionRecord, _ parties: SessionParties) -> OnrampSessionLastError? {
        let total = record.details.quoted.sourceTotal
        let currency = record.details.purchase.sourceCurrency
        let method = parties.method?.type ?? .card
        if let refusal = kycRefusal(parties.customer, amount: Money(amount: total, currency: currency), method: method)
        {
            return OnrampSessionLastError(kycRefusal: refusal)
        }
        if !record.livemode, currency == "usd", total > Self.sandboxLimitUSD { return .transactionLimitReached }
        return parties.walletRegistered ? nil : .missingConsumerWallet
    }

    /// Charges the session's payment method (``SessionParties/method``) in the sandbox.
    private func charge(_ record: inout OnrampSessionRecord, method: TestPaymentMethod?) -> PaymentOutcome {
        guard let method else { return .declined }
        if method.type == .ach && !record.mandateAccepted { return .missingMandate }
        switch method.behaviour {
        case .succeeds: return .succeeded
        case .declines: return .declined
        case .requiresAuthentication:
            switch record.threeDSStatus {
            case .passed: return .succeeded
            case .failed: return .declined
            case .pending, nil:
                let token = ids.base62(length: 32)
                record.threeDSTokenHash = APIKeyRepository.secretHash(token)
                record.threeDSStatus = .pending
                record.details.nextActionURL =
                    "\(publicBaseURL)\(PagePaths.threeDSecure)?session=\(record.id)&token=\(token)"
                return .requiresAction
            }
        }
    }

    /// Why ``KYCPolicy`` refuses `customer` a purchase of `amount` by `method`, or `nil` when it allows it.
    private func kycRefusal(_ customer: CryptoCustomer, amount: Money, method: PaymentMethodType) -> OnrampError? {
        let request = KYCPolicy.Request(
            verifications: customer.verifications, amount: amount,
            country: customer.address["country"] ?? customer.country,
            subdivision: customer.address["state"], paymentMethod: method,
            riskRequiresDocumentVerification: customer.firstName == Self.riskChallengeFirstName,
            checksRejected: customer.phoneStatus == .rejected || customer.kycStatus == .rejected)
        switch policy.evaluate(request) {
        case .success: return nil
        case .failure(let error): return error
        }
    }

    /// Prices `purchase` paid by `method`; an unknown pair is `crypto_onramp_invalid_source_destination_pair`.
    private func quote(_ purchase: OnrampSessionPurchase, method: PaymentMethodType) throws -> EmbeddedQuote {
        try quote(
            sourceCurrency: purchase.sourceCurrency, destinationCurrency: purchase.destinationCurrency,
            network: purchase.destinationNetwork, method: method, amount: purchase.amount)
    }

    /// Prices a purchase (also the quote-only route); an unknown pair is
    /// `crypto_onramp_invalid_source_destination_pair`.
    package func quote(
        sourceCurrency: String, destinationCurrency: String, network: String, method: PaymentMethodType,
        amount: EmbeddedAmount
    ) throws -> EmbeddedQuote {
        do {
            return try QuoteCalculator(catalogue: catalogue).embeddedQuote(
                EmbeddedQuoteRequest(
                    sourceCurrency: sourceCurrency, destinationCurrency: destinationCurrency,
                    destinationNetwork: network,
                    paymentMethod: method, amount: amount), clock: clock)
        } catch let error as OnrampError {
            switch error.code {
            case .unknownAsset, .unknownNetwork, .assetNotOnNetwork, .unknownFiatCurrency, .priceUnavailable,
                .unsupportedPaymentMethod:
                throw pairError(error.developerMessage)
            default: throw error
            }
        }
    }

    private func pairError(_ message: String) -> OnrampError {
        OnrampError.refusal("crypto_onramp_invalid_source_destination_pair", message, parameter: "destination_currency")
    }
}

import OnrampCore
import OnrampCrypto
import OnrampRuntime
import OnrampStore
import OnrampWire

/// The Headless Onramp (Coinbase's guest checkout): orders priced from the catalogue and paid with Apple
/// Pay or Google Pay on a single-use payment-button page, the per-phone guest limits, and settlement
/// through the same ``SettlementProvider`` as App2App purchases. Every state change and its order-form
/// `onramp.transaction.*` events commit together; sandbox orders (`partnerUserRef` `sandbox-…`) settle
/// but send no webhooks and count toward no limit.
package struct GuestCheckoutService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    package let schedule: SettlementSchedule
    /// Where the payment-button pages are served (`http://127.0.0.1:8080`).
    package let publicBaseURL: String
    package let settlement: any SettlementProvider
    /// The one-time codes of the embedded-mode page.
    package let verifications: VerificationService
    /// The key payment-link tokens are sealed with, derived from the data key.
    private let linkSealingKey: [UInt8]

    /// The service on the parts of `context` it uses, settling through `settlement`.
    package init(context: ServerContext, settlement: any SettlementProvider) {
        environment = context.environment
        catalogue = context.catalogue
        schedule = SettlementSchedule(context: context)
        publicBaseURL = context.publicBaseURL
        self.settlement = settlement
        verifications = VerificationService(context: context)
        linkSealingKey = HMACSHA256.authenticationCode(
            key: context.dataKey, message: Array("headless-payment-link".utf8))
    }

    /// How long the payment link may be paid.
    package static let linkLifetimeMilliseconds: Int64 = 15 * 60_000
    /// How far in the future a client's timestamp may lie (clock skew).
    package static let skewMilliseconds: Int64 = 5 * 60_000

    /// A created order, or a quote (`isQuote`, nothing stored), and its payment link.
    package struct Created: Sendable {
        package let order: GuestCheckoutOrderRecord
        package let paymentLink: (url: String, type: String)?
        /// An embedded-mode order's `userAuthToken`, once its user is verified.
        package var userAuthToken: String?
    }

    /// What the payment sheet did.
    package enum SheetAction: String, Sendable {
        case approve, decline, cancel
    }

    // MARK: - Orders

    /// Creates the order of `request`, or under `idempotency` (the caller's key and the HMAC of the request's
    /// body) answers the order a first call with that key made, with the same payment link (a quote makes
    /// nothing, so it ignores the key). An aggregator's `endPartnerId` (`X-Onramp-Partner-Id`) must name one
    /// of its end partners and scopes the order to it; other projects' headers are ignored.
    package func create(
        _ request: CreateOrderRequest, projectId: String, endPartnerId: String? = nil,
        idempotency: IdempotencyClaim? = nil
    )
        throws -> Created
    {
        let claim = request.isQuote ? nil : idempotency
        return try IdempotentCreation.run(
            claim, mismatch: HeadlessFailure.idempotencyMismatch,
            find: { key in
                try database.read {
                    try GuestCheckoutOrderRepository(connection: $0).find(projectId: projectId, idempotencyKey: key)
                }.map { ($0, $0.requestHash) }
            },
            replay: replay,
            create: { try create(request, projectId: projectId, endPartnerId: endPartnerId, claim: claim) }
        )
    }

    /// Creates the order of `request`, storing `claim` with it.
    private func create(
        _ request: CreateOrderRequest, projectId: String, endPartnerId: String?, claim: IdempotencyClaim?
    ) throws -> Created {
        let partnerId =
            try endPartnerId == nil
            ? nil : database.read { try EndPartnerRepository(connection: $0).scope(endPartnerId, projectId: projectId) }
        let now = nowMilliseconds
        let contact =
            request.isEmbedded
            ? try embeddedContact(request, projectId: projectId, now: now) : try given(request, now: now)
        let (phone, email) = contact.details ?? ("", "")
        guard contact.details == nil || phone.hasPrefix("+1"), request.paymentCurrency == "USD" else {
            throw HeadlessFailure.regionForbidden
        }
        let quote = try price(request)
        let amount = try DecimalAmount(parsing: quote.paymentTotal)
        let token = Base64URL.encode(ids.randomBytes(32), padded: false)
        let orderId = ids.uuid().lowercased()
        let (order, events) = GuestCheckoutOrder.create(awaitingVerification: contact.details == nil)
        var record = GuestCheckoutOrderRecord(
            orderId: orderId, projectId: projectId, partnerUserRef: request.partnerUserRef,
            partnerOrderRef: request.partnerOrderRef, status: order.status, failureReason: nil,
            paymentMethod: request.paymentMethod, quote: quote, destinationAddress: request.destinationAddress,
            phoneNumber: phone, email: email, domain: request.domain, txHash: nil, sandbox: request.isSandbox,
            linkTokenHash: APIKeyRepository.secretHash(token),
            linkTokenSealed: Base64.encode(
                try AESGCM.seal(Array(token.utf8), key: linkSealingKey, associatedData: Array(orderId.utf8))),
            linkExpiresAt: now + Self.linkLifetimeMilliseconds, idempotencyKey: claim?.key,
            requestHash: claim?.fingerprint,
            nextStepAt: nil, createdAt: now, updatedAt: now)
        record.embedded = request.isEmbedded
        record.partnerId = partnerId
        if case .verifiedByToken(_, _, let userToken) = contact {
            record.userAuthTokenSealed = try seal(userToken, for: orderId)
        }
        try insert(
            record, events: events, request: request, phone: phone, email: email, amount: amount, now: now,
            checksLimits: contact.details != nil)
        guard !request.isQuote else { return Created(order: record, paymentLink: nil) }
        return Created(
            order: record, paymentLink: link(for: record, token: token, locale: request.locale),
            userAuthToken: try userAuthToken(of: record))
    }

    /// Refuses an order of `amount` that would pass the guest's limits (per person across partners of a mode,
    /// in real time); with `locking`, holds the guest's row first so parallel orders are counted one by one.
    private func checkLimits(
        _ orders: GuestCheckoutOrderRepository, phone: String, amount: DecimalAmount, livemode: Bool, locking: Bool,
        now: Int64
    ) throws {
        if locking { try orders.lockGuest(phoneNumber: phone, now: now) }
        let upgrade = try LimitUpgradeRepository(connection: orders.connection).status(phone: phone, livemode: livemode)
        let limits = upgrade == .active ? GuestCheckoutLimits.upgraded : GuestCheckoutLimits.standard
        let realNow = schedule.realNowMilliseconds
        let usage = try orders.usage(
            phoneNumber: phone, livemode: livemode, since: realNow - GuestCheckoutLimits.weekMilliseconds, now: realNow)
        switch limits.breach(ordering: amount, spentThisWeek: usage.spent, orders: usage.orders) {
        case .weeklySpending?:
            let left = limits.remaining(spentThisWeek: usage.spent, orders: usage.orders).spending
            throw HeadlessFailure.weeklyLimit(remaining: left.string(places: 2))
        case .lifetimeTransactions?:
            throw HeadlessFailure.lifetimeCount(limits.lifetimeTransactions)
        case nil:
            break
        }
    }

    // MARK: - The embedded-mode page

    /// The embedded page's first step: the user's phone number and email. A code goes to the phone (the
    /// sandbox's `000000`, under the per-person throttle) and the order waits for it (`PENDING_VERIFICATION`);
    /// entering them again sends a new code. Nil for an unknown link.
    package func enterContact(linkToken token: String, phone: String, email: String) throws -> GuestCheckoutOrderRecord?
    {
        guard let current = try order(linkToken: token), current.embedded else { return nil }
        guard [.pendingAuth, .pendingVerification].contains(current.status) else { return current }
        let now = nowMilliseconds
        guard now < current.linkExpiresAt else {
            throw HeadlessFailure.invalid(param: "sessionToken", message: "This payment link has expired.")
        }
        guard (try? PhoneNumber(e164: phone)) != nil else {
            throw HeadlessFailure.invalid(param: "phoneNumber", message: "Enter the phone number as +14155550123.")
        }
        guard phone.hasPrefix("+1") else { throw HeadlessFailure.regionForbidden }
        guard Verification.isEmailAddress(email) else {
            throw HeadlessFailure.invalid(param: "email", message: "Enter an email address.")
        }
        let verification = try verifications.initiate(
            InitiateVerificationRequest(channel: .sms, destination: phone), projectId: current.projectId)
        var machine = GuestCheckoutOrder(status: current.status)
        let events = try machine.handle(.contactEntered)
        var updated = current
        (updated.phoneNumber, updated.email, updated.verificationId) = (phone, email.lowercased(), verification.id)
        (updated.status, updated.updatedAt) = (machine.status, now)
        return try database.transaction { connection in
            let orders = GuestCheckoutOrderRepository(connection: connection)
            guard
                try orders.enterContact(
                    orderId: current.orderId, phone: phone, email: updated.email, verificationId: verification.id,
                    now: now)
            else { return try orders.find(orderId: current.orderId) ?? current }
            try emit(events, for: updated, connection: connection, now: now)
            return updated
        }
    }

    /// The embedded page's second step: the code. Right, the user is verified: the guest's limits are checked
    /// now that the user is known, a `userAuthToken` is issued (kept as a hash, sealed on the order), and the
    /// order waits for payment. Nil for an unknown link.
    package func verify(linkToken token: String, code: String) throws -> GuestCheckoutOrderRecord? {
        guard let current = try order(linkToken: token), current.embedded else { return nil }
        guard current.status == .pendingVerification, let verificationId = current.verificationId else {
            return current
        }
        let now = nowMilliseconds
        guard now < current.linkExpiresAt else {
            throw HeadlessFailure.invalid(param: "sessionToken", message: "This payment link has expired.")
        }
        _ = try verifications.submit(
            id: verificationId, SubmitVerificationRequest(otpCode: code), projectId: current.projectId)
        let userToken = Base64URL.encode(ids.randomBytes(32), padded: false)
        var machine = GuestCheckoutOrder(status: current.status)
        let events = try machine.handle(.verified)
        var updated = current
        (updated.status, updated.updatedAt, updated.verificationId) = (machine.status, now, nil)
        updated.userAuthTokenSealed = try seal(userToken, for: current.orderId)
        let amount = try DecimalAmount(parsing: current.quote.paymentTotal)
        return try database.transaction { connection in
            let orders = GuestCheckoutOrderRepository(connection: connection)
            if !current.sandbox {
                let livemode = try TestClockRepository(connection: connection).mode(of: current.projectId) ?? false
                try checkLimits(
                    orders, phone: current.phoneNumber, amount: amount, livemode: livemode, locking: true, now: now)
            }
            guard
                try orders.markVerified(
                    orderId: current.orderId, userAuthTokenSealed: updated.userAuthTokenSealed ?? "", now: now)
            else { return try orders.find(orderId: current.orderId) ?? current }
            try UserAuthTokenRepository(connection: connection).insert(
                hash: APIKeyRepository.secretHash(userToken),
                record: .init(
                    projectId: current.projectId, partnerUserRef: current.partnerUserRef,
                    phoneNumber: current.phoneNumber, email: current.email,
                    destinationAddress: current.destinationAddress,
                    expiresAt: now + UserAuthTokenRepository.lifetimeMilliseconds, revoked: false), now: now)
            try emit(events, for: updated, connection: connection, now: now)
            return updated
        }
    }

    /// Who an order is for, as its request tells.
    package enum Contact {
        /// The partner's verified user (today's orders).
        case given(phone: String, email: String)
        /// An embedded-mode order of a user whose `userAuthToken` is good for this wallet.
        case verifiedByToken(phone: String, email: String, token: String)
        /// An embedded-mode order whose page will ask for the user's contact details and code.
        case awaited

        /// The phone number and email, when known.
        package var details: (phone: String, email: String)? {
            switch self {
            case .given(let phone, let email), .verifiedByToken(let phone, let email, _): (phone, email)
            case .awaited: nil
            }
        }
    }

    /// A non-embedded order's contact, with its checks: both fields, the agreement, and the phone's
    /// verification (a verification id, or when the partner's app verified it, within 60 days).
    private func given(_ request: CreateOrderRequest, now: Int64) throws -> Contact {
        guard let phone = request.phoneNumber, let email = request.email else {
            let missing = request.phoneNumber == nil ? "phoneNumber" : "email"
            throw HeadlessFailure.invalid(param: missing, message: "Missing required field \(missing).")
        }
        guard let accepted = request.agreementAcceptedAt else {
            throw HeadlessFailure.invalid(
                param: "agreementAcceptedAt",
                message:
                    "Missing required field agreementAcceptedAt: when the user accepted the terms and privacy policy.")
        }
        guard accepted <= now + Self.skewMilliseconds else {
            throw HeadlessFailure.invalid(
                param: "agreementAcceptedAt", message: "agreementAcceptedAt is in the future.")
        }
        if request.smsVerificationId == nil {
            guard let verifiedAt = request.phoneNumberVerifiedAt else {
                throw HeadlessFailure.invalid(
                    param: "phoneNumberVerifiedAt",
                    message:
                        "Send phoneNumberVerifiedAt (when your app verified the phone by OTP) or smsVerificationId.")
            }
            guard verifiedAt <= now + Self.skewMilliseconds else {
                throw HeadlessFailure.invalid(
                    param: "phoneNumberVerifiedAt", message: "phoneNumberVerifiedAt is in the future.")
            }
            guard now - verifiedAt <= Verification.verifiedLifetimeMilliseconds else {
                throw HeadlessFailure.phoneVerificationExpired
            }
        }
        return .given(phone: phone, email: email)
    }

    /// An embedded-mode order's contact: awaited on its page, or a returning user's when its `userAuthToken` is
    /// this project's and partner user's, live, and for the same wallet (another wallet verifies again). A
    /// token that is not good is refused, not ignored.
    private func embeddedContact(_ request: CreateOrderRequest, projectId: String, now: Int64) throws -> Contact {
        guard let token = request.userAuthToken, !request.isQuote else { return .awaited }
        let record = try database.read {
            try UserAuthTokenRepository(connection: $0).find(hash: APIKeyRepository.secretHash(token))
        }
        guard let record, record.projectId == projectId, record.partnerUserRef == request.partnerUserRef,
            !record.revoked, now < record.expiresAt
        else { throw HeadlessFailure.userAuthTokenInvalid }
        guard record.destinationAddress == request.destinationAddress else { return .awaited }
        return .verifiedByToken(phone: record.phoneNumber, email: record.email, token: token)
    }

    /// The `userAuthToken` an order shows: once its user is verified.
    package func userAuthToken(of order: GuestCheckoutOrderRecord) throws -> String? {
        guard let sealed = order.userAuthTokenSealed.flatMap(Base64.decode) else { return nil }
        return String(
            validating: try AESGCM.open(
                sealed, key: linkSealingKey, associatedData: Array("uat:\(order.orderId)".utf8)),
            as: UTF8.self)
    }

    /// `token` sealed for order `orderId` (base64).
    private func seal(_ token: String, for orderId: String) throws -> String {
        Base64.encode(
            try AESGCM.seal(Array(token.utf8), key: linkSealingKey, associatedData: Array("uat:\(orderId)".utf8)))
    }

    /// Checks the verifications and limits and stores the order with its `created` event, in one transaction
    /// (only checks, for a quote).
    private func insert(
        _ record: GuestCheckoutOrderRecord, events: [GuestCheckoutOrder.DomainEvent], request: CreateOrderRequest,
        phone: String, email: String, amount: DecimalAmount, now: Int64, checksLimits: Bool
    ) throws {
        let projectId = record.projectId
        try database.transaction { connection in
            let orders = GuestCheckoutOrderRepository(connection: connection)
            if let id = request.smsVerificationId {
                try VerificationService.check(
                    connection, id: id, param: "smsVerificationId", channel: .sms, destination: phone,
                    projectId: projectId, now: now)
            }
            if let id = request.emailVerificationId {
                try VerificationService.check(
                    connection, id: id, param: "emailVerificationId", channel: .email, destination: email,
                    projectId: projectId, now: now)
            }
            let livemode = try TestClockRepository(connection: connection).mode(of: projectId) ?? false
            let realNow = schedule.realNowMilliseconds
            if !request.isSandbox, checksLimits {
                try checkLimits(
                    orders, phone: phone, amount: amount, livemode: livemode, locking: !request.isQuote, now: now)
            }
            guard !request.isQuote else { return }
            try orders.insert(record, livemode: livemode, placedAt: realNow)
            try emit(events, for: record, connection: connection, now: now)
        }
    }

    /// An order an earlier call made, with its payment link, as its retry is answered.
    private func replay(_ earlier: GuestCheckoutOrderRecord) throws -> Created {
        guard let sealed = Base64.decode(earlier.linkTokenSealed),
            let token = String(
                validating: try AESGCM.open(sealed, key: linkSealingKey, associatedData: Array(earlier.orderId.utf8)),
                as: UTF8.self)
        else { throw StoreError(.typeMismatch, "an order's sealed payment link does not open") }
        return Created(
            order: earlier, paymentLink: link(for: earlier, token: token, locale: nil),
            userAuthToken: try userAuthToken(of: earlier))
    }

    private func link(for order: GuestCheckoutOrderRecord, token: String, locale: String?) -> (
        url: String, type: String
    ) {
        let (path, type) =
            order.embedded
            ? (PagePaths.embeddedOrder, GuestPaymentMethod.embeddedOrderLinkType)
            : (order.paymentMethod.pagePath, order.paymentMethod.linkType)
        var url = "\(publicBaseURL)\(path)?sessionToken=\(token)"
        if let locale { url += "&locale=\(locale)" }
        return (url, type)
    }

    /// The order `id` of `projectId`.
    package func order(id: String, projectId: String) throws -> GuestCheckoutOrderRecord {
        guard id.utf8.count <= 64,
            let order = try database.read({
                try GuestCheckoutOrderRepository(connection: $0).find(orderId: id, projectId: projectId)
            })
        else { throw HeadlessFailure.orderNotFound }
        return order
    }

    /// The quote of an order, from the catalogue (both wallets carry the card-wallet fees of Apple Pay).
    private func price(_ request: CreateOrderRequest) throws -> StoredQuote {
        let purchase = PurchaseRequest(
            purchaseCurrency: request.purchaseCurrency, destinationNetwork: request.destinationNetwork,
            destinationAddress: request.destinationAddress, redirectUrl: "", paymentAmount: request.paymentAmount,
            purchaseAmount: request.purchaseAmount, paymentCurrency: request.paymentCurrency,
            paymentMethod: PaymentMethodType.applePay.rawValue, partnerUserRef: request.partnerUserRef, country: "US",
            subdivision: nil, clientIp: nil)
        do {
            return StoredQuote(try purchase.quote(catalogue: catalogue))
        } catch {
            // A typed `catch … where` over the error crashes Swift 6.3's ownership verifier.
            guard ["destinationNetwork", "purchaseCurrency"].contains(error.parameter) else { throw error }
            throw HeadlessFailure.networkNotTradable(error.developerMessage)
        }
    }

    // MARK: - Limits

    /// The guest's limits and what is left of them, and its limit upgrade (cdp-sdk 1.51.0
    /// `GetOnrampUserLimits200Response` with `limitUpgradeOptions`).
    package func userLimits(_ request: UserLimitsRequest, projectId: String) throws -> OnrampUserLimits {
        let realNow = schedule.realNowMilliseconds
        let (usage, upgrade) = try database.read { connection in
            let livemode = try TestClockRepository(connection: connection).mode(of: projectId) ?? false
            return (
                try GuestCheckoutOrderRepository(connection: connection).usage(
                    phoneNumber: request.phoneNumber, livemode: livemode,
                    since: realNow - GuestCheckoutLimits.weekMilliseconds, now: realNow),
                try LimitUpgradeRepository(connection: connection).status(
                    phone: request.phoneNumber, livemode: livemode)
            )
        }
        let limits = upgrade == .active ? GuestCheckoutLimits.upgraded : GuestCheckoutLimits.standard
        let left = limits.remaining(spentThisWeek: usage.spent, orders: usage.orders)
        let fields = [.unrequested, .resubmit, .pending].contains(upgrade) ? ["ssnLast4", "dateOfBirth"] : []
        let upgraded = GuestCheckoutLimits.upgraded
        return OnrampUserLimits(
            limits: [
                .init(
                    limitType: "weekly_spending", currency: "USD", limit: limits.weeklySpendingUSD.string(places: 2),
                    remaining: left.spending.string(places: 2)),
                .init(
                    limitType: "lifetime_transactions", limit: String(limits.lifetimeTransactions),
                    remaining: String(left.transactions)),
            ],
            limitUpgradeOptions: [
                .init(
                    status: upgrade.rawValue, fields: fields,
                    limitUpgrades: [
                        .init(limitType: "weekly_spending", maxUpgrade: upgraded.weeklySpendingUSD.string(places: 0)),
                        .init(limitType: "lifetime_transactions", maxUpgrade: String(upgraded.lifetimeTransactions)),
                    ])
            ])
    }

    // MARK: - The payment sheet

    /// The order a payment link names, if any.
    package func order(linkToken token: String) throws -> GuestCheckoutOrderRecord? {
        guard !token.isEmpty, token.utf8.count <= 64 else { return nil }
        return try database.read {
            try GuestCheckoutOrderRepository(connection: $0).find(linkTokenHash: APIKeyRepository.secretHash(token))
        }
    }

    /// Applies what the payment sheet did: approving starts settlement, declining fails the order, and
    /// cancelling changes nothing. Returns the order as it now stands; nil for an unknown link.
    package func sheet(_ action: SheetAction, linkToken token: String) throws -> GuestCheckoutOrderRecord? {
        guard let current = try order(linkToken: token) else { return nil }
        guard action != .cancel, current.status == .pendingPayment else { return current }
        let now = nowMilliseconds
        guard now < current.linkExpiresAt else {
            throw HeadlessFailure.invalid(param: "sessionToken", message: "This payment link has expired.")
        }
        var machine = GuestCheckoutOrder(status: current.status)
        let events = try machine.handle(action == .approve ? .paymentApproved : .paymentDeclined)
        var updated = current
        updated.status = machine.status
        updated.failureReason = machine.failureReason
        updated.nextStepAt = action == .approve ? schedule.nextStep(after: now) : nil
        updated.updatedAt = now
        return try database.transaction { connection in
            let orders = GuestCheckoutOrderRepository(connection: connection)
            // A second tab, or a double tap, that lost the race sees what the first one did.
            guard try orders.update(updated, from: .pendingPayment) else {
                return try orders.find(orderId: current.orderId) ?? current
            }
            try emit(events, for: updated, connection: connection, now: now)
            return updated
        }
    }

    // MARK: - Settlement

    /// Settles the paid orders that are due; returns how many moved.
    @discardableResult
    package func advanceDueOrders(limit: Int = 100) throws -> Int {
        let due = try database.read {
            try GuestCheckoutOrderRepository(connection: $0).due(now: schedule.realNowMilliseconds, limit: limit)
        }
        var moved = 0
        for (id, projectId) in due {
            // One order that cannot be settled must not hold up the others.
            do {
                // In its project's time, as the order's due time was set.
                if try schedule.bound(to: projectId, { try settle(orderId: id) }) { moved += 1 }
            } catch {
                AccessLog.shared.error("order \(id) settlement step failed: \(error)")
            }
        }
        return moved
    }

    /// Takes a paid order's settlement now instead of when it comes due (the console's "settle now"), or
    /// with `forced` in place of the provider's outcome ("fail now"), in its project's time, through the
    /// same steps and events. `false` when the order is not being settled.
    package func finishNow(orderId: String, forcing forced: SettlementResult?) throws -> Bool {
        let projectId = try database.read {
            try GuestCheckoutOrderRepository(connection: $0).find(orderId: orderId)?.projectId
        }
        guard let projectId else { return false }
        return try schedule.bound(to: projectId) {
            try settle(orderId: orderId, forcing: forced, takingOver: true)
        }
    }

    /// One order's settlement: claimed with a lease (in real time, ``SettlementLease``), sent outside any
    /// database transaction, recorded with its events; false when another worker holds it. `forced`
    /// replaces the provider's outcome. `takingOver` claims it whether or not it is due or leased (the
    /// console's actions), in the claim's one transaction so no worker slips in between: a worker holding
    /// the lease then loses it, its outcome is not recorded, and the provider is idempotent on the reference.
    package func settle(orderId: String, forcing forced: SettlementResult? = nil, takingOver: Bool = false) throws
        -> Bool
    {
        let now = nowMilliseconds
        let realNow = schedule.realNowMilliseconds
        let leaseUntil = realNow + SettlementLease.milliseconds
        let claimed = try database.transaction { connection -> GuestCheckoutOrderRecord? in
            let orders = GuestCheckoutOrderRepository(connection: connection)
            guard let order = try orders.find(orderId: orderId), order.status == .processing,
                let next = order.nextStepAt
            else { return nil }
            if takingOver { return try orders.takeOver(order, until: leaseUntil) ? order : nil }
            guard next <= now, try orders.lease(order, until: leaseUntil, now: realNow) else { return nil }
            return order
        }
        guard let claimed else { return false }
        var machine = GuestCheckoutOrder(status: claimed.status)
        let events: [GuestCheckoutOrder.DomainEvent]
        // A sandbox order never reaches a real provider: the simulator settles it.
        let provider = claimed.sandbox ? SimulatedSettlement(catalogue: catalogue) : settlement
        switch forced
            ?? provider.settle(
                reference: claimed.orderId, network: claimed.quote.network, asset: claimed.quote.purchaseCurrency,
                amount: claimed.quote.purchaseAmount, walletAddress: claimed.destinationAddress,
                partnerUserRef: claimed.partnerUserRef)
        {
        case .delivered(let txHash): events = try machine.handle(.delivered(txHash: txHash))
        case .buyFailed: events = try machine.handle(.fail(.buyFailed))
        case .sendFailed: events = try machine.handle(.fail(.sendFailed))
        }
        var settled = claimed
        settled.status = machine.status
        settled.txHash = machine.txHash
        settled.failureReason = machine.failureReason
        settled.nextStepAt = nil
        settled.updatedAt = nowMilliseconds
        return try database.transaction { connection in
            guard
                try GuestCheckoutOrderRepository(connection: connection).update(
                    settled, from: .processing, leasedUntil: leaseUntil)
            else { return false }
            try emit(events, for: settled, connection: connection, now: settled.updatedAt)
            return true
        }
    }

    private func emit(
        _ events: [GuestCheckoutOrder.DomainEvent], for order: GuestCheckoutOrderRecord, connection: any SQLConnection,
        now: Int64
    ) throws {
        guard !order.sandbox else { return }
        for event in events {
            try Outbox.append(
                connection, id: ids.timeOrderedUUID(milliseconds: now), projectId: order.projectId, family: .cdp,
                type: event.eventType,
                payload: order.webhookJSON(eventType: event.eventType, catalogue: catalogue), livemode: true,
                createdAtMilliseconds: now)
        }
    }
}

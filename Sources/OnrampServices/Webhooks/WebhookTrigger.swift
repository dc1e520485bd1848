import OnrampCore
import OnrampStore
import OnrampWire

/// Emits a real event of a given type in a sandbox database, for `onramp trigger`.
///
/// - `onramp.transaction.*`: creates a live App2App transaction from a quoted purchase (25 USD of
///   USDC on Base) exactly as a confirmed purchase does (the transaction row and its `created` event
///   in one transaction), then moves it with the real ``TransactionService`` and settlement simulator:
///   one step for `updated`, two for `success`; `failed` uses the simulator's `-fail-buy` input.
///   A transaction left before its end is finished by a running server's settlement worker.
/// - `offramp.transaction.*`: starts a sell (25 USDC on Base, cashed out to a fiat wallet) as "Cash out now"
///   does, with its `created` event; `updated` and `success` take its step at once (the crypto arrives),
///   `failed` fails the send (the simulator's `-fail-send` input). A sell left `STARTED` is finished by a
///   running server's worker.
/// - `crypto.onramp_session.updated`: writes a Stripe event whose `data.object` is an onramp session
///   in `fulfillment_complete`, in the shape the Embedded routes emit.
/// - `payment_intent.succeeded`: a test-mode deposit address receives 25 USDC, as
///   `POST /v1/test_helpers/crypto/deposit_addresses/{id}/deposit` does: the deposit, its PaymentIntent and
///   the event, together.
public struct WebhookTrigger: Sendable {
    /// The event types `trigger` knows how to cause.
    public static let supportedTypes = [
        "onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success",
        "onramp.transaction.failed", "offramp.transaction.created", "offramp.transaction.updated",
        "offramp.transaction.success", "offramp.transaction.failed", "crypto.onramp_session.updated",
        "payment_intent.succeeded",
    ]

    /// Why a trigger was refused.
    public struct TriggerError: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    package let context: ServerContext

    /// Creates a trigger on a migrated `database`.
    public init(database: any Database, clock: any OnrampCore.Clock = SystemClock()) {
        // No settlement delay: a trigger moves the transaction as far as its event type asks at once.
        context = ServerContext(
            database: database, clock: clock, publicBaseURL: "http://127.0.0.1", appAttestRoots: [], settlementDelay: 0)
    }

    /// An event a trigger wrote to the outbox.
    public struct Written: Sendable, Equatable {
        /// The event's id.
        public let id: String
        /// Its type.
        public let type: String
    }

    /// Causes one event of `type` (and the events that precede it) for `projectId`; returns the events
    /// written to the outbox, oldest first.
    public func trigger(_ type: String, projectId: String) throws -> [Written] {
        guard let project = try context.database.read({ try ProjectRepository(connection: $0).find(projectId) }) else {
            throw TriggerError(description: "no project \(projectId)")
        }
        switch type {
        case "onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success",
            "onramp.transaction.failed":
            return try transaction(project: project, until: type)
        case "offramp.transaction.created", "offramp.transaction.updated", "offramp.transaction.success",
            "offramp.transaction.failed":
            return try sell(projectId: projectId, until: type)
        case "crypto.onramp_session.updated":
            return [Written(id: try sessionUpdated(projectId: projectId), type: type)]
        case "payment_intent.succeeded":
            return try deposit(projectId: projectId)
        default:
            throw TriggerError(
                description: "cannot trigger \(type); supported: \(Self.supportedTypes.joined(separator: ", "))")
        }
    }

    private func transaction(project: Project, until type: String) throws -> [Written] {
        let partnerUserRef = type == "onramp.transaction.failed" ? "trigger-user-fail-buy" : "trigger-user"
        let purchase = try PurchaseRequest(
            fields: RequestFields([
                "purchaseCurrency": "USDC", "destinationNetwork": "base",
                "destinationAddress": "0x4315d134aCd3221a02dD380ADE3aF39Ce219037c",
                "redirectUrl": "https://trigger.invalid/return", "paymentAmount": "25.00", "paymentCurrency": "USD",
                "paymentMethod": "CARD", "partnerUserRef": .string(partnerUserRef), "country": "US",
            ]))
        let quotingProject = Project(
            id: project.id, name: project.name, app2AppEnabled: true, allowedEnvironments: project.allowedEnvironments,
            appIds: project.appIds, redirectHosts: ["trigger.invalid"])
        let quote = StoredQuote(try purchase.validate(for: quotingProject, catalogue: context.catalogue))
        let now = context.nowMilliseconds
        let record = TransactionRecord(
            transactionId: context.ids.uuid(), projectId: project.id, sessionToken: "trigger_" + context.ids.base62(),
            partnerUserRef: partnerUserRef, isAppToApp: true, quote: quote, purchase: purchase,
            paymentTotalUSD: quote.paymentTotal,
            endPartnerName: project.name,
            userId: TransactionService.userId(projectId: project.id, partnerUserRef: partnerUserRef), now: now)
        try context.database.transaction { connection in
            try record.insert(into: connection)
            for event in App2AppTransaction.create().events {
                try Outbox.append(
                    connection, id: context.ids.timeOrderedUUID(milliseconds: now), projectId: project.id, family: .cdp,
                    type: event.eventType,
                    payload: record.webhookJSON(eventType: event.eventType), livemode: true,
                    createdAtMilliseconds: now)
            }
        }
        let steps = ["onramp.transaction.created": 0, "onramp.transaction.updated": 1][type] ?? 2
        let service = TransactionService(context: context, settlement: SimulatedSettlement())
        for _ in 0..<steps {
            _ = try service.advance(transactionId: record.transactionId, now: context.nowMilliseconds)
        }
        return try events(projectId: project.id, naming: record.transactionId)
    }

    private func sell(projectId: String, until type: String) throws -> [Written] {
        let offramp = OfframpService(context: context)
        let choice = HostedOnrampSession.Choice(
            asset: try context.catalogue.asset("USDC"), network: try context.catalogue.network("base"),
            address: "0x4315d134aCd3221a02dD380ADE3aF39Ce219037c")
        let quote = try offramp.quote(asset: "USDC", amount: "25", currency: "USD", method: "FIAT_WALLET")
        let sell = try offramp.startSell(
            projectId: projectId, choice: choice, quote: quote, method: "FIAT_WALLET",
            partnerUserRef: type == "offramp.transaction.failed" ? "trigger-user-fail-send" : "trigger-user",
            redirectUrl: "https://trigger.invalid/return", dueNow: type != "offramp.transaction.created")
        if type != "offramp.transaction.created" { try offramp.advanceDueSells() }
        return try events(projectId: projectId, naming: sell.transactionId)
    }

    private func deposit(projectId: String) throws -> [Written] {
        let caller = StripeCaller(projectId: projectId, livemode: false)
        let deposits = DepositAddressService(context: context)
        let address = try deposits.create(network: "base", customer: nil, metadata: [:], caller: caller)
        let (received, _) = try deposits.deposit(
            addressId: address.id, amount: "25.00", tokenCurrency: "usdc", transactionHash: nil, caller: caller)
        return try events(projectId: projectId, naming: received.id)
    }

    /// `projectId`'s events whose body names `id`, oldest first.
    private func events(projectId: String, naming id: String) throws -> [Written] {
        try context.database.read { connection in
            try connection.query(
                "SELECT id, type FROM outbox_events WHERE project_id = ? AND payload LIKE ? ORDER BY created_at, type",
                [.text(projectId), .text("%\(id)%")]
            ).map { Written(id: try $0.string("id"), type: try $0.string("type")) }
        }
    }

    private func sessionUpdated(projectId: String) throws -> String {
        let now = context.nowMilliseconds
        let id = context.ids.timeOrderedID(prefix: IdPrefix.event, milliseconds: now)
        let sessionId = context.ids.id(prefix: IdPrefix.onrampSession)
        let session: JSONValue = [
            "id": .string(sessionId), "object": "crypto.onramp_session",
            "client_secret": .string(context.ids.clientSecret(for: sessionId)),
            "created": .integer(Timestamp.unixSeconds(milliseconds: now)), "livemode": false,
            "status": "fulfillment_complete",
            "transaction_details": [
                "destination_currency": "usdc", "destination_network": "base", "destination_amount": "24.50",
                "source_currency": "usd", "source_amount": "25.00",
                "wallet_address": "0x4315d134aCd3221a02dD380ADE3aF39Ce219037c",
            ],
        ]
        let event = StripeEvent(
            id: id, type: "crypto.onramp_session.updated", created: Timestamp.unixSeconds(milliseconds: now),
            livemode: false, apiVersion: "2025-03-31.basil", object: session)
        try context.database.transaction {
            let appending = Outbox.appending(event, projectId: projectId, createdAtMilliseconds: now)
            try $0.execute(appending.sql, appending.parameters)
        }
        return id
    }
}

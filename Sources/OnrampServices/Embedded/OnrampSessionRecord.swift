import OnrampCore
import OnrampStore
import OnrampWire

/// A stored `crypto.onramp_session`: status and `last_error` from the ``OnrampSession`` machine, the
/// purchase and its quoted amounts in ``OnrampSessionDetails``, and the 3-D Secure and fulfilment
/// bookkeeping.
package struct OnrampSessionRecord: Sendable {
    package let id: String
    package let projectId: String
    package let customerId: String
    package let clientSecret: String
    package let livemode: Bool
    package var machine: OnrampSession
    /// The purchase and its quote.
    package var details: OnrampSessionDetails
    package var quoteExpiresAt: Int64
    package var threeDSTokenHash: String?
    package var threeDSStatus: ThreeDSecureStatus?
    package var mandateAccepted: Bool
    package var fulfillDueAt: Int64?
    package let createdAt: Int64
    package var updatedAt: Int64

    /// The session `id` of the project; with `livemode`, only when it was made with a key of that mode.
    /// With `locking`, on PostgreSQL the row is locked until the caller's transaction commits, so concurrent
    /// checkouts of one session run one after the other (SQLite's writer lock already serializes them).
    ///
    /// The statement names the primary key alone and the owner is checked here. With the project in the
    /// statement, PostgreSQL planned it, on a table it had not analyzed yet, as a search of the project's
    /// listing index `(project_id, created_at, id)` that compares `id` in every entry: every session of the
    /// project read per lookup, until autovacuum's first `ANALYZE` (`QueryPlanTests`).
    package static func find(
        _ connection: any SQLConnection, id: String, projectId: String, livemode: Bool? = nil, locking: Bool = false
    ) throws -> OnrampSessionRecord? {
        let lock = locking && connection.dialect == .postgres ? " FOR UPDATE" : ""
        let statement = "SELECT * FROM crypto_onramp_sessions WHERE id = ?" + lock
        guard let record = try connection.query(statement, [.text(id)]).first.map(Self.init(row:)),
            record.projectId == projectId, livemode.map({ $0 == record.livemode }) ?? true
        else { return nil }
        return record
    }

    /// The session `id` of whatever project (for the console, which acts for none).
    package static func find(anyProject connection: any SQLConnection, id: String) throws -> OnrampSessionRecord? {
        try connection.query("SELECT * FROM crypto_onramp_sessions WHERE id = ?", [.text(id)]).first.map(
            Self.init(row:))
    }

    /// A session's 3-D Secure challenge: the hash of the token its page link carries, and its status.
    package static func threeDSChallenge(_ connection: any SQLConnection, id: String) throws
        -> (tokenHash: String, status: ThreeDSecureStatus?)?
    {
        guard
            let row = try connection.query(
                "SELECT three_ds_token_hash, three_ds_status FROM crypto_onramp_sessions WHERE id = ?", [.text(id)]
            ).first,
            let hash = row.optionalString("three_ds_token_hash")
        else { return nil }
        return (hash, row.optionalString("three_ds_status").flatMap(ThreeDSecureStatus.init(rawValue:)))
    }

    /// Records `answer` to the session's challenge if it is still the pending one issued with
    /// `tokenHash`; `false` when it was answered already or a later checkout issued another.
    package static func answerThreeDSChallenge(
        _ connection: any SQLConnection, id: String, tokenHash: String, with answer: ThreeDSecureStatus
    ) throws -> Bool {
        try connection.execute(
            """
            UPDATE crypto_onramp_sessions SET three_ds_status = ?
            WHERE id = ? AND three_ds_status = ? AND three_ds_token_hash = ?
            """, [.text(answer.rawValue), .text(id), .text(ThreeDSecureStatus.pending.rawValue), .text(tokenHash)]) == 1
    }

    /// A session whose fulfilment is due.
    package struct DueFulfilment: Sendable {
        package let id: String
        package let projectId: String
        /// The project's test-clock offset when the session is in test mode (0 for live ones), read
        /// with the list so the batch is bound to each project's time without another read.
        package let clockOffset: Int64
    }

    /// Up to `limit` sessions whose fulfilment is due at `now` (a test-mode one in its project's time)
    /// and whose lease (in real time, `realNow`) is free, earliest first.
    package static func dueFulfilments(now: Int64, realNow: Int64, limit: Int, on connection: any SQLConnection) throws
        -> [DueFulfilment]
    {
        try connection.query(
            """
            SELECT s.id, s.project_id, COALESCE(c.offset_ms, 0) AS clock_offset
            FROM crypto_onramp_sessions s
            LEFT JOIN test_clocks c ON c.project_id = s.project_id AND s.livemode = 0
            WHERE \(TestClockRepository.due("s.fulfill_due_at", clock: "c")) AND \(SettlementLease.isFree)
            ORDER BY s.fulfill_due_at LIMIT ?
            """,
            [.integer(now), .integer(now), .integer(realNow), .integer(Int64(limit))]
        ).map {
            DueFulfilment(
                id: try $0.string("id"), projectId: try $0.string("project_id"),
                clockOffset: Int64(try $0.int("clock_offset")))
        }
    }

    /// Leases the fulfilment due at `dueAt` until the real time `leaseUntil`; false when it is no longer
    /// due then or another worker's lease is not over at `realNow`.
    package static func leaseFulfilment(
        _ connection: any SQLConnection, id: String, dueAt: Int64, until leaseUntil: Int64, realNow: Int64
    ) throws -> Bool {
        try connection.execute(
            "UPDATE crypto_onramp_sessions SET lease_until = ? WHERE id = ? AND fulfill_due_at = ? AND \(SettlementLease.isFree)",
            [.integer(leaseUntil), .text(id), .integer(dueAt), .integer(realNow)]) == 1
    }

    /// Gives back a lease this worker took until `leasedUntil` and did not use; nothing when another
    /// worker has leased the session since.
    package static func releaseFulfilment(_ connection: any SQLConnection, id: String, leasedUntil: Int64) throws {
        try connection.execute(
            "UPDATE crypto_onramp_sessions SET lease_until = NULL WHERE id = ? AND lease_until = ?",
            [.text(id), .integer(leasedUntil)])
    }

    /// Leases a fulfilment in progress until the real time `leaseUntil` whether or not another worker
    /// holds it; false when none is in progress.
    package static func takeOver(_ connection: any SQLConnection, id: String, until leaseUntil: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE crypto_onramp_sessions SET lease_until = ?
            WHERE id = ? AND status = ? AND fulfill_due_at IS NOT NULL
            """, [.integer(leaseUntil), .text(id), .text(OnrampSession.Status.fulfillmentProcessing.rawValue)]) == 1
    }

    package init(row: Row) throws {
        id = try row.string("id")
        projectId = try row.string("project_id")
        customerId = try row.string("customer_id")
        clientSecret = try row.string("client_secret")
        livemode = try row.int("livemode") != 0
        machine = OnrampSession(
            status: OnrampSession.Status(rawValue: try row.string("status")) ?? .rejected,
            lastError: row.optionalString("last_error").flatMap(OnrampSessionLastError.init(rawValue:)),
            transactionID: row.optionalString("transaction_id"))
        details = try OnrampSessionDetails(row: row)
        quoteExpiresAt = try row.int("quote_expires_at")
        threeDSTokenHash = row.optionalString("three_ds_token_hash")
        threeDSStatus = row.optionalString("three_ds_status").flatMap(ThreeDSecureStatus.init(rawValue:))
        mandateAccepted = try row.int("mandate_accepted") != 0
        fulfillDueAt = row.optionalInt("fulfill_due_at")
        createdAt = try row.int("created_at")
        updatedAt = try row.int("updated_at")
    }

    package init(
        id: String, projectId: String, customerId: String, clientSecret: String, livemode: Bool, machine: OnrampSession,
        details: OnrampSessionDetails, quoteExpiresAt: Int64, now: Int64
    ) {
        self.id = id
        self.projectId = projectId
        self.customerId = customerId
        self.clientSecret = clientSecret
        self.livemode = livemode
        self.machine = machine
        self.details = details
        self.quoteExpiresAt = quoteExpiresAt
        mandateAccepted = false
        createdAt = now
        updatedAt = now
    }

    /// The insert of a session, its details in their columns.
    private static let insertStatement: String = {
        let columns =
            [
                "id", "project_id", "customer_id", "client_secret", "livemode", "status", "last_error",
                "destination_currency", "destination_network", "quote_expires_at", "created_at", "updated_at",
            ] + OnrampSessionDetails.purchaseColumns + OnrampSessionDetails.quoteColumns
        return "INSERT INTO crypto_onramp_sessions (\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }()

    package func insert(_ connection: any SQLConnection) throws {
        try connection.execute(
            Self.insertStatement,
            [
                .text(id), .text(projectId), .text(customerId), .text(clientSecret), .integer(livemode ? 1 : 0),
                .text(machine.status.rawValue), machine.lastError.map { .text($0.rawValue) } ?? .null,
                .text(details.purchase.destinationCurrency), .text(details.purchase.destinationNetwork),
                .integer(quoteExpiresAt), .integer(createdAt), .integer(updatedAt),
            ] + details.purchaseValues + details.quoteValues)
    }

    /// The update of a saved session: its state, its quote and its bookkeeping (the purchase never changes).
    private static let updateStatement = """
        UPDATE crypto_onramp_sessions SET status = ?, last_error = ?, quote_expires_at = ?, three_ds_token_hash = ?,
            three_ds_status = ?, mandate_accepted = ?, transaction_id = ?, fulfill_due_at = ?, updated_at = ?,
            \(OnrampSessionDetails.quoteColumns.map { "\($0) = ?" }.joined(separator: ", "))
        WHERE id = ?
        """

    /// Writes the record and, in the same transaction, one `crypto.onramp_session.updated` event per
    /// status change: one batch of statements (one round trip on PostgreSQL).
    package func save(_ connection: any SQLConnection, events: [OnrampSession.DomainEvent], ids: IdGenerator) throws {
        var statements = [
            SQLStatement(
                Self.updateStatement,
                [
                    .text(machine.status.rawValue), machine.lastError.map { .text($0.rawValue) } ?? .null,
                    .integer(quoteExpiresAt), threeDSTokenHash.map(SQLValue.text) ?? .null,
                    threeDSStatus.map { .text($0.rawValue) } ?? .null, .integer(mandateAccepted ? 1 : 0),
                    machine.transactionID.map(SQLValue.text) ?? .null, fulfillDueAt.map(SQLValue.integer) ?? .null,
                    .integer(updatedAt),
                ] + details.quoteValues + [.text(id)])
        ]
        // Events of one transaction are a millisecond apart so every listing orders them as they happened.
        for (index, event) in events.enumerated() {
            // Each event carries the session as it was right after its own status change.
            guard case .updated(let status, let lastError) = event else { continue }
            var snapshot = self
            snapshot.machine = OnrampSession(status: status, lastError: lastError, transactionID: machine.transactionID)
            let eventId = ids.timeOrderedID(prefix: IdPrefix.event, milliseconds: updatedAt + Int64(index))
            let stripeEvent = StripeEvent(
                id: eventId, type: event.eventType, created: updatedAt / 1000, livemode: livemode,
                object: snapshot.wire)
            statements.append(
                Outbox.appending(stripeEvent, projectId: projectId, createdAtMilliseconds: updatedAt + Int64(index)))
        }
        _ = try connection.run(statements)
    }

    /// The `crypto.onramp_session` object.
    package var wire: CryptoOnrampSession {
        let purchase = details.purchase
        let quoted = details.quoted
        let nextAction = machine.lastError == .actionRequired ? details.nextActionURL : nil
        return CryptoOnrampSession(
            id: id, clientSecret: clientSecret, created: createdAt / 1000, livemode: livemode,
            status: machine.status.wire, cryptoCustomerId: customerId, paymentToken: purchase.paymentToken,
            nextAction: nextAction.map(CryptoOnrampSession.NextAction.init(redirectingTo:)),
            metadata: purchase.metadata,
            transactionDetails: CryptoOnrampSession.TransactionDetails(
                destinationAmount: quoted.destinationAmount, destinationCurrency: purchase.destinationCurrency,
                destinationNetwork: purchase.destinationNetwork,
                destinationCurrencies: purchase.destinationCurrencies,
                destinationNetworks: purchase.destinationNetworks,
                fees: CryptoOnrampSession.Fees(
                    networkFeeAmount: quoted.networkFeeAmount, transactionFeeAmount: quoted.transactionFeeAmount),
                lastError: machine.lastError?.wire, quoteExpiration: quoteExpiresAt / 1000,
                settlementSpeed: purchase.settlementSpeed, sourceAmount: quoted.sourceAmount,
                sourceCurrency: purchase.sourceCurrency, sourceTotalAmount: quoted.sourceTotalAmount,
                transactionId: machine.transactionID, walletAddress: purchase.walletAddress))
    }

    /// The `crypto.onramp_session` object as written on the wire.
    package var json: JSONValue { wire.json }
}

extension OnrampSession.Status {
    /// The status as the wire spells it.
    fileprivate var wire: CryptoOnrampSession.Status {
        switch self {
        case .initialized: .initialized
        case .requiresPayment: .requiresPayment
        case .fulfillmentProcessing: .fulfillmentProcessing
        case .fulfillmentComplete: .fulfillmentComplete
        case .rejected: .rejected
        }
    }
}

extension OnrampSessionLastError {
    /// The error as the wire spells it.
    fileprivate var wire: CryptoOnrampSession.LastError {
        switch self {
        case .actionRequired: .actionRequired
        case .missingKYC: .missingKYC
        case .missingDocumentVerification: .missingDocumentVerification
        case .chargedWithExpiredQuote: .chargedWithExpiredQuote
        case .missingConsumerWallet: .missingConsumerWallet
        case .transactionLimitReached: .transactionLimitReached
        case .locationNotSupported: .locationNotSupported
        case .transactionFailed: .transactionFailed
        }
    }
}

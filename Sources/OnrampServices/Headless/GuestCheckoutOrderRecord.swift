import OnrampCore
import OnrampStore
import OnrampWire

/// A stored guest checkout order: the quote it was priced at, the user it is for, where it stands,
/// and its single-use payment link (stored as a hash only).
package struct GuestCheckoutOrderRecord: Sendable, Equatable {
    package var orderId: String
    package var projectId: String
    package var partnerUserRef: String
    package var partnerOrderRef: String?
    package var status: GuestCheckoutOrder.Status
    package var failureReason: GuestCheckoutOrder.FailureReason?
    package var paymentMethod: GuestPaymentMethod
    package var quote: StoredQuote
    package var destinationAddress: String
    package var phoneNumber: String
    package var email: String
    package var domain: String?
    package var txHash: String?
    package var sandbox: Bool
    package var linkTokenHash: String
    /// The link's token sealed with a key derived from the data key (base64), so an idempotent retry can
    /// show the same link; the database alone does not reveal it.
    package var linkTokenSealed: String
    package var linkExpiresAt: Int64
    /// The caller's `X-Idempotency-Key`, and an HMAC of the request it came with.
    package var idempotencyKey: String?
    package var requestHash: String?
    package var nextStepAt: Int64?
    package var createdAt: Int64
    package var updatedAt: Int64
    /// Whether the order is an embedded-mode one (its link opens the page that verifies the user first).
    package var embedded = false
    /// The one-time code the embedded page sent, while the user's code is awaited.
    package var verificationId: String?
    /// The user's `userAuthToken` sealed like the link (base64), once the user is verified, so the order can
    /// show it again.
    package var userAuthTokenSealed: String?
    /// The end partner an aggregator placed the order for (`X-Onramp-Partner-Id`), shown as `partnerId`.
    package var partnerId: String?

    /// The `OnrampOrder` object (cdp-sdk `onramp_order.py`): amounts as decimal strings, the exchange rate
    /// as the crypto value of one unit of fiat (to the asset's decimals in `catalogue`).
    package func wire(catalogue: Catalogue) -> OnrampOrder {
        OnrampOrder(
            orderId: orderId, paymentTotal: quote.paymentTotal, paymentSubtotal: quote.paymentSubtotal,
            paymentCurrency: quote.paymentCurrency, paymentMethod: paymentMethod.rawValue,
            purchaseAmount: quote.purchaseAmount, purchaseCurrency: quote.purchaseCurrency, fees: quote.fees,
            exchangeRate: quote.cryptoPerFiat(catalogue: catalogue), destinationAddress: destinationAddress,
            destinationNetwork: quote.network, status: status.rawValue,
            createdAt: Timestamp.rfc3339(milliseconds: createdAt),
            updatedAt: Timestamp.rfc3339(milliseconds: updatedAt),
            partnerUserRef: partnerUserRef, txHash: txHash, partnerId: partnerId)
    }

    /// The order-form webhook payload (cdp-sdk `OnrampOrderPayload`, fees as `OrderFee`), plus the
    /// `paymentAmount` Coinbase's demo backend reads (`server/src/app.ts`, `/webhooks/onramp`).
    package func webhookJSON(eventType: String, catalogue: Catalogue) -> JSONValue {
        OnrampOrderPayload(
            eventType: eventType, order: wire(catalogue: catalogue), failureReason: failureReason?.rawValue
        )
        .json
    }
}

/// The orders table (and the per-phone guest rows that serialise limit checks), on the transaction's
/// connection.
package struct GuestCheckoutOrderRepository {
    package let connection: any SQLConnection

    /// Stores `order`, placed by a project of `livemode` at the real time `placedAt` (what the guest's
    /// limits are counted by, ``usage(phoneNumber:livemode:since:now:)``).
    package func insert(_ order: GuestCheckoutOrderRecord, livemode: Bool, placedAt: Int64) throws {
        try connection.execute(
            """
            INSERT INTO onramp_orders (order_id, project_id, partner_user_ref, partner_order_ref, status, failure_reason,
                payment_method, payment_currency, payment_total, payment_subtotal, purchase_amount, purchase_currency,
                exchange_rate, exchange_fee, network_fee, destination_address, destination_network, phone_number, email,
                domain, tx_hash, sandbox, link_token_hash, link_token_sealed, link_expires_at, idempotency_key,
                request_hash, next_step_at, created_at, updated_at, livemode, placed_at, embedded, user_auth_token_sealed,
                partner_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(order.orderId), .text(order.projectId), .text(order.partnerUserRef),
                order.partnerOrderRef.map(SQLValue.text) ?? .null, .text(order.status.rawValue),
                order.failureReason.map { .text($0.rawValue) } ?? .null, .text(order.paymentMethod.rawValue),
                .text(order.quote.paymentCurrency), .text(order.quote.paymentTotal), .text(order.quote.paymentSubtotal),
                .text(order.quote.purchaseAmount), .text(order.quote.purchaseCurrency), .text(order.quote.exchangeRate),
                .text(order.quote.coinbaseFee), .text(order.quote.networkFee), .text(order.destinationAddress),
                .text(order.quote.network), .text(order.phoneNumber), .text(order.email),
                order.domain.map(SQLValue.text) ?? .null, order.txHash.map(SQLValue.text) ?? .null,
                .integer(order.sandbox ? 1 : 0), .text(order.linkTokenHash), .text(order.linkTokenSealed),
                .integer(order.linkExpiresAt), order.idempotencyKey.map(SQLValue.text) ?? .null,
                order.requestHash.map(SQLValue.text) ?? .null, order.nextStepAt.map(SQLValue.integer) ?? .null,
                .integer(order.createdAt), .integer(order.updatedAt), .integer(livemode ? 1 : 0), .integer(placedAt),
                .integer(order.embedded ? 1 : 0), order.userAuthTokenSealed.map(SQLValue.text) ?? .null,
                order.partnerId.map(SQLValue.text) ?? .null,
            ])
    }

    /// An embedded-mode order's user entered `phone` and `email` and was sent the code `verificationId`: the
    /// order waits for it (`PENDING_VERIFICATION`). False when the order is no longer waiting for the user.
    package func enterContact(orderId: String, phone: String, email: String, verificationId: String, now: Int64) throws
        -> Bool
    {
        try connection.execute(
            """
            UPDATE onramp_orders SET phone_number = ?, email = ?, verification_id = ?, status = ?, updated_at = ?
            WHERE order_id = ? AND embedded = 1 AND status IN (?, ?)
            """,
            [
                .text(phone), .text(email), .text(verificationId),
                .text(GuestCheckoutOrder.Status.pendingVerification.rawValue), .integer(now), .text(orderId),
                .text(GuestCheckoutOrder.Status.pendingAuth.rawValue),
                .text(GuestCheckoutOrder.Status.pendingVerification.rawValue),
            ]) == 1
    }

    /// An embedded-mode order's user is verified: it waits for payment, and shows `tokenSealed` from now on.
    package func markVerified(orderId: String, userAuthTokenSealed tokenSealed: String, now: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE onramp_orders SET status = ?, user_auth_token_sealed = ?, verification_id = NULL, updated_at = ?
            WHERE order_id = ? AND status = ?
            """,
            [
                .text(GuestCheckoutOrder.Status.pendingPayment.rawValue), .text(tokenSealed), .integer(now),
                .text(orderId), .text(GuestCheckoutOrder.Status.pendingVerification.rawValue),
            ]) == 1
    }

    package func find(orderId: String, projectId: String) throws -> GuestCheckoutOrderRecord? {
        try connection.query(
            "SELECT * FROM onramp_orders WHERE order_id = ? AND project_id = ?", [.text(orderId), .text(projectId)]
        ).first.map(Self.record)
    }

    package func find(linkTokenHash: String) throws -> GuestCheckoutOrderRecord? {
        try connection.query("SELECT * FROM onramp_orders WHERE link_token_hash = ?", [.text(linkTokenHash)]).first.map(
            Self.record)
    }

    package func find(projectId: String, idempotencyKey: String) throws -> GuestCheckoutOrderRecord? {
        try connection.query(
            "SELECT * FROM onramp_orders WHERE project_id = ? AND idempotency_key = ?",
            [.text(projectId), .text(idempotencyKey)]
        ).first.map(Self.record)
    }

    package func find(orderId: String) throws -> GuestCheckoutOrderRecord? {
        try connection.query("SELECT * FROM onramp_orders WHERE order_id = ?", [.text(orderId)]).first.map(Self.record)
    }

    /// Takes the guest's row for the rest of the transaction (PostgreSQL; SQLite has one writer), so two
    /// orders of one phone number, in any project, are checked against the limits one after the other.
    package func lockGuest(phoneNumber: String, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO onramp_guest_users (phone_number, created_at) VALUES (?, ?)
            ON CONFLICT (phone_number) DO NOTHING
            """, [.text(phoneNumber), .integer(now)])
        guard connection.dialect == .postgres else { return }
        _ = try connection.query(
            "SELECT phone_number FROM onramp_guest_users WHERE phone_number = ? FOR UPDATE", [.text(phoneNumber)])
    }

    /// What the guest (a person, whichever partner of `livemode` they buy through) spent since the real time
    /// `since` and how many orders they placed, at the real time `now`: failed orders, sandbox ones, embedded
    /// ones whose user is not verified yet and unpaid ones whose link has expired do not count. All in real time (`placed_at`; a link lives
    /// ``GuestCheckoutService/linkLifetimeMilliseconds`` from it), so no project's test clock moves another's
    /// count, and test mode's orders never count against live mode's limits, nor the other way round.
    package func usage(phoneNumber: String, livemode: Bool, since: Int64, now: Int64) throws -> (
        spent: DecimalAmount, orders: Int
    ) {
        let rows = try connection.query(
            """
            SELECT payment_total, placed_at FROM onramp_orders
            WHERE phone_number = ? AND livemode = ? AND status NOT IN (?, ?, ?) AND sandbox = 0
                AND NOT (status = ? AND placed_at <= ?)
            """,
            [
                .text(phoneNumber), .integer(livemode ? 1 : 0), .text(GuestCheckoutOrder.Status.failed.rawValue),
                .text(GuestCheckoutOrder.Status.pendingAuth.rawValue),
                .text(GuestCheckoutOrder.Status.pendingVerification.rawValue),
                .text(GuestCheckoutOrder.Status.pendingPayment.rawValue),
                .integer(now - GuestCheckoutService.linkLifetimeMilliseconds),
            ])
        var spent = DecimalAmount(exactly: 0)
        for row in rows where try row.int("placed_at") >= since {
            spent = spent + (try DecimalAmount(parsing: try row.string("payment_total")))
        }
        return (spent, rows.count)
    }

    /// Writes `order`'s new state if it is still in `expected` (and, for a settlement, still under the
    /// lease `leasedUntil` this worker took, which it releases); false when another request or worker
    /// moved it first.
    package func update(
        _ order: GuestCheckoutOrderRecord, from expected: GuestCheckoutOrder.Status, leasedUntil: Int64? = nil
    )
        throws -> Bool
    {
        var sql = """
            UPDATE onramp_orders SET status = ?, failure_reason = ?, tx_hash = ?, next_step_at = ?, updated_at = ?,
                lease_until = NULL
            WHERE order_id = ? AND status = ?
            """
        var parameters: [SQLValue] = [
            .text(order.status.rawValue), order.failureReason.map { .text($0.rawValue) } ?? .null,
            order.txHash.map(SQLValue.text) ?? .null, order.nextStepAt.map(SQLValue.integer) ?? .null,
            .integer(order.updatedAt), .text(order.orderId), .text(expected.rawValue),
        ]
        if let leasedUntil {
            sql += " AND lease_until = ?"
            parameters.append(.integer(leasedUntil))
        }
        return try connection.execute(sql, parameters) == 1
    }

    /// Orders whose next settlement step is due in their project's time (`now`: real time) and that no
    /// worker holds; each with its project.
    package func due(now: Int64, limit: Int) throws -> [(orderId: String, projectId: String)] {
        try connection.query(
            """
            SELECT o.order_id, o.project_id FROM onramp_orders o
            LEFT JOIN test_clocks c ON c.project_id = o.project_id
            WHERE \(TestClockRepository.due("o.next_step_at", clock: "c")) AND \(SettlementLease.isFree)
            ORDER BY o.next_step_at LIMIT ?
            """,
            [.integer(now), .integer(now), .integer(now), .integer(Int64(limit))]
        ).map { (try $0.string("order_id"), try $0.string("project_id")) }
    }

    /// Leases a settling order's step until the real time `leaseUntil` whether or not another worker holds
    /// it; false when it is no longer settling.
    package func takeOver(_ order: GuestCheckoutOrderRecord, until leaseUntil: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE onramp_orders SET lease_until = ? WHERE order_id = ? AND status = ? AND next_step_at IS NOT NULL",
            [.integer(leaseUntil), .text(order.orderId), .text(order.status.rawValue)]) == 1
    }

    /// Claims the due step of `order` until the real time `leaseUntil` (another worker may retry it
    /// after that); false when a worker holds it at the real time `now`.
    package func lease(_ order: GuestCheckoutOrderRecord, until leaseUntil: Int64, now: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE onramp_orders SET lease_until = ? WHERE order_id = ? AND status = ? AND \(SettlementLease.isFree)",
            [.integer(leaseUntil), .text(order.orderId), .text(order.status.rawValue), .integer(now)]) == 1
    }

    private static func record(_ row: Row) throws -> GuestCheckoutOrderRecord {
        guard let status = GuestCheckoutOrder.Status(rawValue: try row.string("status")),
            let method = GuestPaymentMethod(rawValue: try row.string("payment_method"))
        else { throw StoreError(.typeMismatch, "unknown order status or payment method") }
        let quote = StoredQuote(
            paymentTotal: try row.string("payment_total"), paymentSubtotal: try row.string("payment_subtotal"),
            paymentCurrency: try row.string("payment_currency"), purchaseAmount: try row.string("purchase_amount"),
            purchaseCurrency: try row.string("purchase_currency"), network: try row.string("destination_network"),
            contractAddress: "", coinbaseFee: try row.string("exchange_fee"), networkFee: try row.string("network_fee"),
            exchangeRate: try row.string("exchange_rate"), paymentMethod: method.rawValue)
        return GuestCheckoutOrderRecord(
            orderId: try row.string("order_id"), projectId: try row.string("project_id"),
            partnerUserRef: try row.string("partner_user_ref"),
            partnerOrderRef: row.optionalString("partner_order_ref"),
            status: status,
            failureReason: row.optionalString("failure_reason").flatMap(
                GuestCheckoutOrder.FailureReason.init(rawValue:)),
            paymentMethod: method, quote: quote, destinationAddress: try row.string("destination_address"),
            phoneNumber: try row.string("phone_number"), email: try row.string("email"),
            domain: row.optionalString("domain"), txHash: row.optionalString("tx_hash"),
            sandbox: try row.int("sandbox") != 0, linkTokenHash: try row.string("link_token_hash"),
            linkTokenSealed: try row.string("link_token_sealed"), linkExpiresAt: try row.int("link_expires_at"),
            idempotencyKey: row.optionalString("idempotency_key"), requestHash: row.optionalString("request_hash"),
            nextStepAt: row.optionalInt("next_step_at"),
            createdAt: try row.int("created_at"), updatedAt: try row.int("updated_at"),
            embedded: try row.int("embedded") != 0, verificationId: row.optionalString("verification_id"),
            userAuthTokenSealed: row.optionalString("user_auth_token_sealed"),
            partnerId: row.optionalString("partner_id"))
    }
}

import OnrampStore
import OnrampWire

/// Stored payment methods (`pm_…`, a project's) and crypto payment tokens (`cpt_…`, a customer's),
/// each holding a ``TestPaymentMethod``'s stored details.
package struct PaymentMethodRepository {
    package let connection: any SQLConnection

    /// Stores the method `id` created in `projectId`.
    package func insertMethod(id: String, projectId: String, _ method: TestPaymentMethod, now: Int64) throws {
        try connection.execute(
            "INSERT INTO payment_methods (id, project_id, details, created_at) VALUES (?, ?, ?, ?)",
            [.text(id), .text(projectId), .text(method.storedText), .integer(now)])
    }

    /// The method `id` created in `projectId`.
    package func method(id: String, projectId: String) throws -> TestPaymentMethod? {
        guard
            let details = try connection.query(
                "SELECT details FROM payment_methods WHERE id = ? AND project_id = ?", [.text(id), .text(projectId)]
            ).first?.string("details")
        else { return nil }
        return try TestPaymentMethod(storedText: details)
    }

    /// Stores the single-use card token `id` (`tok_…`) of `projectId`'s `livemode`.
    package func insertCardToken(id: String, projectId: String, livemode: Bool, _ method: TestPaymentMethod, now: Int64)
        throws
    {
        try connection.execute(
            "INSERT INTO card_tokens (id, project_id, livemode, details, created_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(id), .text(projectId), .integer(livemode ? 1 : 0), .text(method.storedText),
                .integer(now),
            ])
    }

    /// What spending card token `id` found.
    package enum CardTokenSpend {
        /// The token was unspent and is now spent on `method`'s behalf.
        case spent(TestPaymentMethod)
        /// No such token of the project and mode was created after the cut-off.
        case unknown
        /// The token was spent before.
        case alreadyUsed
    }

    /// Spends card token `id` of `projectId`'s `livemode`, created after `createdAfter`, at `now`.
    package func spendCardToken(id: String, projectId: String, livemode: Bool, createdAfter: Int64, now: Int64) throws
        -> CardTokenSpend
    {
        guard
            let row = try connection.query(
                "SELECT details FROM card_tokens WHERE id = ? AND project_id = ? AND livemode = ? AND created_at > ?",
                [.text(id), .text(projectId), .integer(livemode ? 1 : 0), .integer(createdAfter)]
            ).first
        else { return .unknown }
        guard
            try connection.execute(
                "UPDATE card_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL", [.integer(now), .text(id)]) == 1
        else { return .alreadyUsed }
        return .spent(try TestPaymentMethod(storedText: try row.string("details")))
    }

    /// Stores the token `id` of the customer's, for the method `paymentMethodId`.
    package func insertToken(
        id: String, projectId: String, customerId: String, paymentMethodId: String, _ method: TestPaymentMethod,
        now: Int64
    ) throws {
        try connection.execute(
            """
            INSERT INTO payment_tokens (id, project_id, customer_id, payment_method_id, details, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .text(projectId), .text(customerId), .text(paymentMethodId),
                .text(method.storedText), .integer(now),
            ])
    }

    /// The customer's token `id`: the method it was made from and what it holds.
    package func token(id: String, customerId: String) throws -> (paymentMethodId: String, method: TestPaymentMethod)? {
        try connection.run(Self.tokenLookup(id: id, customerId: customerId))
    }

    /// The query of ``token(id:customerId:)``.
    package static func tokenLookup(id: String, customerId: String)
        -> SQLQuery<(paymentMethodId: String, method: TestPaymentMethod)?>
    {
        SQLQuery(
            "SELECT payment_method_id, details FROM payment_tokens WHERE id = ? AND customer_id = ?",
            [.text(id), .text(customerId)]
        ) { outcome in
            try outcome.rows.first.map { row in
                (
                    try row.string("payment_method_id"),
                    try TestPaymentMethod(storedText: try row.string("details"))
                )
            }
        }
    }
}

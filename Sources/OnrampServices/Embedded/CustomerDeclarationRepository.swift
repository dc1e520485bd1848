import OnrampStore

/// The declarations a crypto customer accepted (`customer_declarations`), one per kind, the latest
/// accepted version kept.
package struct CustomerDeclarationRepository {
    package let connection: any SQLConnection
    package let customerId: String

    /// Whether the customer accepted a declaration of `kind`.
    package func hasAccepted(_ kind: String) throws -> Bool {
        try !connection.query(
            "SELECT kind FROM customer_declarations WHERE customer_id = ? AND kind = ?",
            [.text(customerId), .text(kind)]
        ).isEmpty
    }

    /// Records that the customer accepted `declarationId` of `kind` at `now` (replacing an earlier one).
    package func accept(_ kind: String, declarationId: String, now: Int64) throws {
        try connection.execute(
            """
            INSERT INTO customer_declarations (customer_id, kind, declaration_id, accepted_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (customer_id, kind) DO UPDATE SET declaration_id = excluded.declaration_id,
                accepted_at = excluded.accepted_at
            """,
            [.text(customerId), .text(kind), .text(declarationId), .integer(now)])
    }
}

import OnrampStore
import OnrampWire

/// The durable outbox: events are written in the same transaction as the state change that causes
/// them, and the webhook dispatcher delivers them afterwards. Nothing is delivered that was not committed.
package enum Outbox {
    /// Which signature scheme and payload family an event belongs to.
    package enum Family: String {
        /// Coinbase CDP events (`onramp.transaction.*`), signed with `X-Hook0-Signature`.
        case cdp
        /// Stripe events (`crypto.onramp_session.updated`), signed with `Stripe-Signature`.
        case stripe
    }

    /// Appends one event inside the caller's transaction. `payload` is the exact body that will be
    /// delivered and signed.
    package static func append(
        _ connection: any SQLConnection, id: String, projectId: String, family: Family, type: String,
        payload: JSONValue, livemode: Bool, createdAtMilliseconds: Int64
    ) throws {
        let statement = appending(
            id: id, projectId: projectId, family: family, type: type, payload: payload, livemode: livemode,
            createdAtMilliseconds: createdAtMilliseconds)
        try connection.execute(statement.sql, statement.parameters)
    }

    /// The statement that appends the event (``append(_:id:projectId:family:type:payload:livemode:createdAtMilliseconds:)``),
    /// for a batch.
    package static func appending(
        id: String, projectId: String, family: Family, type: String, payload: JSONValue, livemode: Bool,
        createdAtMilliseconds: Int64
    ) -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO outbox_events (id, project_id, family, type, payload, livemode, created_at, fanned_out)
            VALUES (?, ?, ?, ?, ?, ?, ?, 0)
            """,
            [
                .text(id), .text(projectId), .text(family.rawValue), .text(type), .text(payload.serializedString),
                .integer(livemode ? 1 : 0), .integer(createdAtMilliseconds),
            ])
    }

    /// The statement that appends the Stripe `event` of `projectId` made at `createdAtMilliseconds`: the
    /// payload is the event as its object writes itself.
    package static func appending<Object: WireObject>(
        _ event: StripeEvent<Object>, projectId: String, createdAtMilliseconds: Int64
    ) -> SQLStatement {
        appending(
            stripe: event, payload: event.json, projectId: projectId, createdAtMilliseconds: createdAtMilliseconds)
    }

    /// The statement that appends the Stripe `event` of `projectId`, whose object is given as JSON.
    package static func appending(
        _ event: StripeEvent<JSONValue>, projectId: String, createdAtMilliseconds: Int64
    ) -> SQLStatement {
        appending(
            stripe: event, payload: event.json, projectId: projectId, createdAtMilliseconds: createdAtMilliseconds)
    }

    private static func appending<Object>(
        stripe event: StripeEvent<Object>, payload: JSONValue, projectId: String, createdAtMilliseconds: Int64
    ) -> SQLStatement {
        appending(
            id: event.id, projectId: projectId, family: .stripe, type: event.type, payload: payload,
            livemode: event.livemode, createdAtMilliseconds: createdAtMilliseconds)
    }
}

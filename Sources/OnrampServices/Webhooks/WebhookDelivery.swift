import OnrampStore
import OnrampWire

/// One event's delivery to one subscription, as the operator views show it.
public struct WebhookDelivery: Sendable {
    /// The delivery row id.
    public let id: String
    /// The stable event id (`X-Event-Id`, or the Stripe event's `id`).
    public let eventId: String
    /// The event type.
    public let eventType: String
    /// The subscription delivered to.
    public let subscriptionId: String
    /// `pending`, `succeeded` or `failed` (gave up after the retry window).
    public let status: String
    /// Attempts made so far.
    public let attemptCount: Int64
    /// When the delivery was created (ms).
    public let createdAt: Int64
    /// When a 2xx was received (ms).
    public let succeededAt: Int64?
    /// When the next attempt is due (ms).
    public let nextAttemptAt: Int64
    /// The last HTTP status received.
    public let lastStatusCode: Int64?
    /// The first kilobyte of the last response.
    public let lastResponse: String?
    /// The last transport error.
    public let lastError: String?
    /// How long the last attempt took, in milliseconds.
    public let lastLatencyMilliseconds: Int64?

    package init(row: Row) throws {
        id = try row.string("id")
        eventId = try row.string("event_id")
        eventType = try row.string("type")
        subscriptionId = try row.string("subscription_id")
        status = try row.string("status")
        attemptCount = try row.int("attempt_count")
        createdAt = try row.int("created_at")
        succeededAt = row.optionalInt("succeeded_at")
        nextAttemptAt = try row.int("next_attempt_at")
        lastStatusCode = row.optionalInt("last_status_code")
        lastResponse = row.optionalString("last_response")
        lastError = row.optionalString("last_error")
        lastLatencyMilliseconds = row.optionalInt("last_latency_ms")
    }

    /// The entry of the subscription's event listing (cdp-sdk 1.51.0's `WebhookEvent`): `retrying` once
    /// attempted and not yet delivered.
    package var cdpEvent: CDPWebhookEvent {
        let status: CDPWebhookEvent.Status =
            switch status {
            case "succeeded": .succeeded
            case "failed": .failed
            default: attemptCount > 0 ? .retrying : .pending
            }
        let attempted = lastStatusCode != nil || lastError != nil
        return CDPWebhookEvent(
            eventId: eventId, eventTypeName: eventType, status: status,
            createdAt: Timestamp.rfc3339(milliseconds: createdAt),
            succeededAt: succeededAt.map { Timestamp.rfc3339(milliseconds: $0) }, retryCount: max(attemptCount - 1, 0),
            response: attempted
                ? CDPWebhookEvent.Response(
                    httpCode: lastStatusCode, elapsedTimeMs: lastLatencyMilliseconds, body: lastResponse,
                    errorName: lastError)
                : nil)
    }

    /// The operator view (`onramp events list --json`).
    public var json: JSONValue {
        [
            "deliveryId": .string(id), "subscriptionId": .string(subscriptionId), "status": .string(status),
            "attempts": .integer(attemptCount), "createdAt": .integer(createdAt),
            "succeededAt": succeededAt.map(JSONValue.integer) ?? .null, "nextAttemptAt": .integer(nextAttemptAt),
            "lastStatusCode": lastStatusCode.map(JSONValue.integer) ?? .null, "lastError": .optional(lastError),
        ]
    }
}

/// Reads deliveries and resets them for redelivery.
package struct WebhookDeliveryRepository {
    package let connection: any SQLConnection

    private static let select = """
        SELECT d.*, e.type,
            (SELECT a.latency_ms FROM webhook_attempts a WHERE a.delivery_id = d.id
             ORDER BY a.attempted_at DESC LIMIT 1) AS last_latency_ms
        FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
        """

    /// What a subscription's listing narrows to (cdp-sdk 1.51.0 `list_webhook_subscription_events`).
    package struct Filter: Sendable {
        package var eventId: String?
        /// Created at or after, in stored milliseconds.
        package var minCreatedAt: Int64?
        /// Created at or before, in stored milliseconds.
        package var maxCreatedAt: Int64?
        package var eventTypes: [String] = []

        /// A value with each stored property given.
        package init(
            eventId: String? = nil, minCreatedAt: Int64? = nil, maxCreatedAt: Int64? = nil, eventTypes: [String] = []
        ) {
            self.eventId = eventId
            self.minCreatedAt = minCreatedAt
            self.maxCreatedAt = maxCreatedAt
            self.eventTypes = eventTypes
        }
    }

    /// A subscription's deliveries matching `filter`, newest first.
    package func list(subscriptionId: String, filter: Filter = Filter(), limit: Int) throws -> [WebhookDelivery] {
        var sql = Self.select + " WHERE d.subscription_id = ?"
        var values: [SQLValue] = [.text(subscriptionId)]
        if let eventId = filter.eventId {
            sql += " AND d.event_id = ?"
            values.append(.text(eventId))
        }
        if let minimum = filter.minCreatedAt {
            sql += " AND d.created_at >= ?"
            values.append(.integer(minimum))
        }
        if let maximum = filter.maxCreatedAt {
            sql += " AND d.created_at <= ?"
            values.append(.integer(maximum))
        }
        if !filter.eventTypes.isEmpty {
            sql += " AND e.type IN (\(Array(repeating: "?", count: filter.eventTypes.count).joined(separator: ", ")))"
            values += filter.eventTypes.map(SQLValue.text)
        }
        sql += " ORDER BY d.created_at DESC, d.id DESC LIMIT ?"
        values.append(.integer(Int64(limit)))
        return try connection.query(sql, values).map(WebhookDelivery.init(row:))
    }

    /// An event's deliveries.
    package func list(eventId: String) throws -> [WebhookDelivery] {
        try connection.query(Self.select + " WHERE d.event_id = ? ORDER BY d.created_at, d.id", [.text(eventId)])
            .map(WebhookDelivery.init(row:))
    }

    /// Makes every delivery of `eventId` due now (also succeeded and failed ones), and fans the event
    /// out again so subscriptions created since receive it too. `false` when there is no such event.
    package func redeliver(eventId: String, now: Int64) throws -> Bool {
        let found = try connection.execute("UPDATE outbox_events SET fanned_out = 0 WHERE id = ?", [.text(eventId)])
        guard found == 1 else { return false }
        try connection.execute(
            """
            UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
            WHERE event_id = ?
            """, [.integer(now), .text(eventId)])
        return true
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

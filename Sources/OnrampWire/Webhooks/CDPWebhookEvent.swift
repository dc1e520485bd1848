/// One event's delivery to a CDP subscription, as its event listing answers it (cdp-sdk 1.51.0's
/// `WebhookEvent`).
public struct CDPWebhookEvent: WireObject, Codable, Equatable {
    /// Where the delivery stands.
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Not attempted yet.
        case pending
        /// Attempted, not delivered yet.
        case retrying
        /// The target answered 2xx.
        case succeeded
        /// Given up after the retry window.
        case failed
    }

    /// The last answer of the target (cdp-sdk's `WebhookEventResponseDetail`); each member only when known.
    public struct Response: Codable, Equatable, Sendable {
        /// The HTTP status.
        public var httpCode: Int64?
        /// How long the attempt took.
        public var elapsedTimeMs: Int64?
        /// The first kilobyte of the body.
        public var body: String?
        /// The transport error.
        public var errorName: String?

        /// A last answer.
        public init(httpCode: Int64?, elapsedTimeMs: Int64?, body: String?, errorName: String?) {
            self.httpCode = httpCode
            self.elapsedTimeMs = elapsedTimeMs
            self.body = body
            self.errorName = errorName
        }
    }

    /// The stable event id.
    public var eventId: String
    /// The event type.
    public var eventTypeName: String
    /// Where the delivery stands.
    public var status: Status
    /// When the delivery was created, RFC 3339.
    public var createdAt: String
    /// When the target answered 2xx, RFC 3339.
    public var succeededAt: String?
    /// Attempts after the first.
    public var retryCount: Int64
    /// The last answer, once an attempt was made.
    public var response: Response?

    /// A delivery.
    public init(
        eventId: String, eventTypeName: String, status: Status, createdAt: String, succeededAt: String?,
        retryCount: Int64, response: Response?
    ) {
        self.eventId = eventId
        self.eventTypeName = eventTypeName
        self.status = status
        self.createdAt = createdAt
        self.succeededAt = succeededAt
        self.retryCount = retryCount
        self.response = response
    }

    /// What a delivery always holds.
    public static let schema = APISchema.object(
        [
            "eventId": .string, "eventTypeName": .string, "status": .enumeration(Status.allCases.map(\.rawValue)),
            "createdAt": .dateTime, "succeededAt": .dateTime, "retryCount": .integer(minimum: 0),
            "response": .object([
                "httpCode": .integer, "elapsedTimeMs": .integer, "body": .string, "errorName": .string,
            ]),
        ], required: ["eventId", "eventTypeName", "status", "createdAt", "retryCount"])
}

/// A subscription's deliveries, newest first (`{events}`).
public struct CDPWebhookEventList: WireObject, Codable, Equatable {
    /// The deliveries.
    public var events: [CDPWebhookEvent]

    /// The list of `events`.
    public init(events: [CDPWebhookEvent]) {
        self.events = events
    }

    /// What the list always holds.
    public static let schema = APISchema.object(["events": .array(CDPWebhookEvent.schema)], required: ["events"])
}

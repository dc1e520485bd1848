/// A CDP webhook subscription as the subscriptions API answers it (cdp-sdk 1.51.0's
/// `WebhookSubscriptionResponse`): its signing secret in every answer, and again as `metadata.secret`, which
/// the SDK keeps "for backward compatibility only".
public struct CDPWebhookSubscription: WireObject, Codable, Equatable {
    /// Where deliveries go.
    public struct Target: Codable, Equatable, Sendable {
        /// The URL.
        public var url: String
        /// Headers sent with every delivery; left out when there are none.
        public var headers: OrderedStringMap?

        /// A target at `url`.
        public init(url: String, headers: OrderedStringMap?) {
            self.url = url
            self.headers = headers
        }
    }

    /// The subscription's id (a UUID).
    public var subscriptionId: String
    /// The partner's description (empty when none was given).
    public var description: String
    /// The event types delivered (`*`: every type).
    public var eventTypes: [String]
    /// Where deliveries go.
    public var target: Target
    /// Whether deliveries are made.
    public var isEnabled: Bool
    /// The partner's metadata, and the secret again under `secret`.
    public var metadata: OrderedStringMap
    /// The partner's labels.
    public var labels: OrderedStringMap
    /// Creation time, RFC 3339.
    public var createdAt: String
    /// The signing secret.
    public var secret: String
    /// Why the server disabled the subscription, when it did.
    public var disabledReason: String?

    /// A subscription as its calls answer it: `metadata` is the partner's, with `secret` set to the secret
    /// (last, whatever the partner stored under that name).
    public init(
        subscriptionId: String, description: String, eventTypes: [String], target: Target, isEnabled: Bool,
        metadata: OrderedStringMap, labels: OrderedStringMap, createdAt: String, secret: String,
        disabledReason: String?
    ) {
        self.subscriptionId = subscriptionId
        self.description = description
        self.eventTypes = eventTypes
        self.target = target
        self.isEnabled = isEnabled
        var metadata = metadata
        metadata["secret"] = nil
        metadata["secret"] = secret
        self.metadata = metadata
        self.labels = labels
        self.createdAt = createdAt
        self.secret = secret
        self.disabledReason = disabledReason
    }

    /// What a subscription always holds.
    public static let schema = APISchema.object(
        [
            "subscriptionId": .string, "description": .string, "eventTypes": .array(.string),
            "target": .object(["url": .string, "headers": .map(.string)], required: ["url"]), "isEnabled": .boolean,
            "metadata": APISchema.map(.string).described("The partner's metadata, and the secret again."),
            "labels": .map(.string), "createdAt": .dateTime, "secret": .string,
            "disabledReason": APISchema.string.described("Why the server disabled the subscription."),
        ],
        required: [
            "subscriptionId", "description", "eventTypes", "target", "isEnabled", "metadata", "labels", "createdAt",
            "secret",
        ])
}

/// A page of CDP webhook subscriptions (cdp-sdk 1.51.0's `WebhookSubscriptionListResponse`).
public struct CDPWebhookSubscriptionList: WireObject, Codable, Equatable {
    /// The page, newest first.
    public var subscriptions: [CDPWebhookSubscription]
    /// The token of the next page; left out on the last.
    public var nextPageToken: String?

    /// A page of `subscriptions`.
    public init(subscriptions: [CDPWebhookSubscription], nextPageToken: String?) {
        self.subscriptions = subscriptions
        self.nextPageToken = nextPageToken
    }

    /// What a page always holds.
    public static let schema = APISchema.object(
        [
            "subscriptions": .array(CDPWebhookSubscription.schema),
            "nextPageToken": APISchema.string.described("Present when there is a next page."),
        ], required: ["subscriptions"])
}

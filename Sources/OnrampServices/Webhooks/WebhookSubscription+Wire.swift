import OnrampCore
import OnrampWire

extension WebhookSubscription {
    /// The subscription as the CDP subscriptions API answers it.
    package var cdpSubscription: CDPWebhookSubscription {
        CDPWebhookSubscription(
            subscriptionId: id, description: description, eventTypes: eventTypes,
            target: .init(url: url, headers: headers.isEmpty ? nil : OrderedStringMap(headers)), isEnabled: enabled,
            metadata: metadata, labels: labels, createdAt: Timestamp.rfc3339(milliseconds: createdAt), secret: secret,
            disabledReason: disabledReason)
    }

    /// The endpoint as Stripe's webhook endpoints API answers it, with its secret only when `showingSecret`
    /// (the answer that created it).
    package func stripeEndpoint(showingSecret: Bool) -> StripeWebhookEndpoint {
        StripeWebhookEndpoint(
            id: id, created: Timestamp.unixSeconds(milliseconds: createdAt),
            description: description.isEmpty ? nil : description, enabledEvents: eventTypes, livemode: livemode,
            metadata: metadata, secret: showingSecret ? secret : nil, status: enabled ? .enabled : .disabled, url: url)
    }
}

import HTTPServer

/// Every webhook route: CDP subscriptions, Stripe webhook endpoints and the Stripe event listing.
struct WebhookRoutes: Sendable {
    let context: ServerContext
    let authenticator: CDPAuthenticator

    func register(on router: inout Router) {
        WebhookSubscriptionRoutes(context: context, authenticator: authenticator).register(on: &router)
        WebhookEndpointRoutes(context: context).register(on: &router)
        EventRoutes(context: context).register(on: &router)
    }
}

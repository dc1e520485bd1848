import HTTPServer

/// Every webhook route: CDP subscriptions, Stripe webhook endpoints and the Stripe event listing.
struct WebhookRoutes: Sendable {
    let context: ServerContext
    let authenticator: CDPAuthenticator

    func register(on router: inout Router) {
        let service = WebhookSubscriptionService(database: context.database, ids: context.ids, clock: context.clock)
        WebhookSubscriptionRoutes(service: service, authenticator: authenticator).register(on: &router)
        WebhookEndpointRoutes(database: context.database, service: service).register(on: &router)
        EventRoutes(context: context).register(on: &router)
    }
}

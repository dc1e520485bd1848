import HTTPServer

/// Every webhook route: CDP subscriptions, Stripe webhook endpoints and the Stripe event listing.
struct WebhookRoutes: Sendable {
    let context: ServerContext
    let authenticator: CDPAuthenticator

    func register(on router: inout Router) {
        let auth = WebhookStripeAuth(database: context.database)
        WebhookSubscriptionRoutes(context: context, authenticator: authenticator).register(on: &router)
        WebhookEndpointRoutes(context: context, auth: auth).register(on: &router)
        EventRoutes(context: context, auth: auth).register(on: &router)
    }
}

import HTTPServer
import OnrampServices

/// Every route of the Coinbase-style contract (App2App, the hosted and Headless onramps, offramp, the
/// transactions API, webhook subscriptions: `/platform/…`, `/onramp/v1/…`), one line each: method, path,
/// who may call it (`cdp.apiKey`: a CDP API key JWT, the handler acting for its project; `router.add`:
/// no credentials, or the route authenticates itself, as its comment says), the operation the OpenAPI
/// description shows, and the handler that decodes the input and calls the service. Errors take the CDP
/// shape, ``CDPErrors`` mapping the domain's.
struct CDPRouteTable: Sendable {
    let app2App: App2AppService
    let authenticator: CDPAuthenticator
    let testClocks: TestClocks
    let hosted: HostedOnrampService
    let transactions: TransactionService
    let guestCheckout: GuestCheckoutService
    let verifications: VerificationService
    let offramp: OfframpService
    let webhooks: WebhookSubscriptionService
    let context: ServerContext

    func register(on router: inout Router) {
        router.setErrorRenderer(CDPErrorRenderer(), forPathPrefix: "/platform/")
        router.setErrorRenderer(CDPErrorRenderer(), forPathPrefix: "/onramp/v1/")
        let cdp = CDPRoutes(authenticator: authenticator)

        // App2App, the seed's form: no credentials (App Attest proves the app), per-address rate limits.
        let app2App = App2AppRoutes(service: app2App, testClocks: testClocks)
        router.add(
            "POST", "/platform/v2/onramp/mobile/projects/{projectId}/attestation/challenges",
            App2AppRoutes.Operations.createRegistrationChallenge, app2App.createRegistrationChallenge)
        router.add(
            "POST", "/platform/v2/onramp/mobile/projects/{projectId}/attestation/registrations",
            App2AppRoutes.Operations.registerProjectAttestationKey, app2App.registerProjectAttestationKey)
        router.add(
            "PUT", "/platform/v2/onramp/mobile/projects/{projectId}/attestation/registrations/{keyId}",
            App2AppRoutes.Operations.putProjectAttestationKey, app2App.putProjectAttestationKey)
        router.add(
            "POST", "/platform/v2/onramp/mobile/challenges", App2AppRoutes.Operations.createPurchaseChallenge,
            app2App.createPurchaseChallenge)
        router.add(
            "POST", "/platform/v2/onramp/mobile/sessions", App2AppRoutes.Operations.createPurchaseSession,
            app2App.createPurchaseSession)
        // App2App, the cdp-sdk form: challenges need the API key; a registration proves itself by its challenge.
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/mobile/attestation/challenges",
            App2AppRoutes.Operations.createRegistrationChallengeWithAPIKey,
            app2App.createRegistrationChallengeWithAPIKey)
        router.add(
            "POST", "/platform/v2/onramp/mobile/attestation/registrations",
            App2AppRoutes.Operations.registerAttestationKey, app2App.registerAttestationKey)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/mobile/sessions/challenges",
            App2AppRoutes.Operations.createPurchaseChallengeWithAPIKey, app2App.createPurchaseChallengeWithAPIKey)

        // The hosted onramp: session tokens and URLs.
        let hostedOnramp = HostedOnrampRoutes(service: hosted)
        cdp.apiKey(
            &router, "POST", "/onramp/v1/token", HostedOnrampRoutes.Operations.createHostedOnrampToken,
            hostedOnramp.createHostedOnrampToken)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/sessions", HostedOnrampRoutes.Operations.createHostedOnrampSession,
            hostedOnramp.createHostedOnrampSession)

        // Buy configuration, options and quotes; the transactions API.
        let buy = BuyRoutes(context: context, hosted: hosted)
        cdp.apiKey(&router, "GET", "/onramp/v1/buy/config", BuyRoutes.Operations.getBuyConfig, buy.getBuyConfig)
        cdp.apiKey(&router, "GET", "/onramp/v1/buy/options", BuyRoutes.Operations.getBuyOptions, buy.getBuyOptions)
        cdp.apiKey(&router, "POST", "/onramp/v1/buy/quote", BuyRoutes.Operations.createBuyQuote, buy.createBuyQuote)
        let transactions = TransactionsRoutes(transactions: transactions)
        cdp.apiKey(
            &router, "GET", "/onramp/v1/buy/user/{partnerUserRef}/transactions",
            TransactionsRoutes.Operations.listUserBuyTransactions, transactions.listUserBuyTransactions)
        cdp.apiKey(
            &router, "GET", "/onramp/v1/buy/transactions", TransactionsRoutes.Operations.listBuyTransactions,
            transactions.listBuyTransactions)

        // The Headless onramp: guest phone verification, limits, Apple Pay and Google Pay orders.
        let headless = HeadlessRoutes(
            orders: guestCheckout, verifications: verifications, limitUpgrades: LimitUpgradeService(context: context),
            idempotencyHashKey: context.idempotencySecrets.requestHashKey)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/verifications", HeadlessRoutes.Operations.createVerification,
            headless.createVerification)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/verifications/{verificationId}/submit",
            HeadlessRoutes.Operations.submitVerification, headless.submitVerification)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/limits", HeadlessRoutes.Operations.userLimits, headless.userLimits)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/limits/upgrade", HeadlessRoutes.Operations.requestLimitUpgrade,
            headless.requestLimitUpgrade)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/orders", HeadlessRoutes.Operations.createOrder, headless.createOrder)
        cdp.apiKey(
            &router, "GET", "/platform/v2/onramp/orders/{orderId}", HeadlessRoutes.Operations.getOrder,
            headless.getOrder)

        // The offramp: sells and their quotes.
        let offramp = OfframpRoutes(service: offramp, hosted: hosted)
        cdp.apiKey(
            &router, "GET", "/onramp/v1/sell/user/{partnerUserRef}/transactions",
            OfframpRoutes.Operations.listUserSells, offramp.listUserSells)
        cdp.apiKey(
            &router, "GET", "/onramp/v1/sell/transactions", OfframpRoutes.Operations.listSells, offramp.listSells)
        cdp.apiKey(&router, "POST", "/onramp/v1/sell/quote", OfframpRoutes.Operations.createQuote, offramp.createQuote)
        cdp.apiKey(
            &router, "GET", "/onramp/v1/sell/config", OfframpRoutes.Operations.getSellConfig, offramp.getSellConfig)
        cdp.apiKey(
            &router, "GET", "/onramp/v1/sell/options", OfframpRoutes.Operations.getSellOptions, offramp.getSellOptions)

        // Webhook subscriptions: the API key, checked by each route (reads outside the project's test clock).
        let subscriptions = WebhookSubscriptionRoutes(service: webhooks, authenticator: authenticator)
        cdp.apiKey(
            &router, "POST", "/platform/v2/data/webhooks/subscriptions",
            WebhookSubscriptionRoutes.Operations.createSubscription, subscriptions.createSubscription)
        cdp.apiKey(
            &router, "GET", "/platform/v2/data/webhooks/subscriptions",
            WebhookSubscriptionRoutes.Operations.listSubscriptions, subscriptions.listSubscriptions)
        router.add(
            "GET", "/platform/v2/data/webhooks/subscriptions/{subscriptionId}",
            WebhookSubscriptionRoutes.Operations.getSubscription, subscriptions.getSubscription)
        router.add(
            "PUT", "/platform/v2/data/webhooks/subscriptions/{subscriptionId}",
            WebhookSubscriptionRoutes.Operations.updateSubscription, subscriptions.updateSubscription)
        router.add(
            "DELETE", "/platform/v2/data/webhooks/subscriptions/{subscriptionId}",
            WebhookSubscriptionRoutes.Operations.deleteSubscription, subscriptions.deleteSubscription)
        router.add(
            "GET", "/platform/v2/data/webhooks/subscriptions/{subscriptionId}/events",
            WebhookSubscriptionRoutes.Operations.listSubscriptionEvents, subscriptions.listSubscriptionEvents)

        // Test clocks (test-mode projects only).
        let testClockRoutes = TestClockRoutes(context: context)
        cdp.apiKey(
            &router, "POST", "/platform/v2/onramp/test_clocks/advance", TestClockRoutes.Operations.advanceCDP,
            testClockRoutes.advanceCDP)
    }
}

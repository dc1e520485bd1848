import HTTPServer
import OnrampServices

/// Every route of the Coinbase-style contract (App2App, the hosted and Headless onramps, offramp, the
/// transactions API, webhook subscriptions: `/platform/…`, `/onramp/v1/…`), one line each: who may call
/// it (`cdp.apiKey`: a CDP API key JWT, the handler acting for its project; `router.add`: no credentials,
/// or the route authenticates itself, as its comment says), the operation (its method, path, success
/// status and what the OpenAPI description shows, in `XRoutes+Operations.swift`), and the handler that
/// decodes the input and calls the service. Errors take the CDP shape, ``CDPErrors`` mapping the domain's.
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
            App2AppRoutes.Operations.createRegistrationChallenge, app2App.createRegistrationChallenge)
        router.add(
            App2AppRoutes.Operations.registerProjectAttestationKey, app2App.registerProjectAttestationKey)
        router.add(
            App2AppRoutes.Operations.putProjectAttestationKey, app2App.putProjectAttestationKey)
        router.add(
            App2AppRoutes.Operations.createPurchaseChallenge,
            app2App.createPurchaseChallenge)
        router.add(
            App2AppRoutes.Operations.createPurchaseSession,
            app2App.createPurchaseSession)
        // App2App, the cdp-sdk form: challenges need the API key; a registration proves itself by its challenge.
        cdp.apiKey(
            &router, App2AppRoutes.Operations.createRegistrationChallengeWithAPIKey,
            app2App.createRegistrationChallengeWithAPIKey)
        router.add(
            App2AppRoutes.Operations.registerAttestationKey, app2App.registerAttestationKey)
        cdp.apiKey(
            &router, App2AppRoutes.Operations.createPurchaseChallengeWithAPIKey,
            app2App.createPurchaseChallengeWithAPIKey)

        // The hosted onramp: session tokens and URLs.
        let hostedOnramp = HostedOnrampRoutes(service: hosted)
        cdp.apiKey(
            &router, HostedOnrampRoutes.Operations.createHostedOnrampToken,
            hostedOnramp.createHostedOnrampToken)
        cdp.apiKey(
            &router, HostedOnrampRoutes.Operations.createHostedOnrampSession,
            hostedOnramp.createHostedOnrampSession)

        // Buy configuration, options and quotes; the transactions API.
        let buy = BuyRoutes(context: context, hosted: hosted)
        cdp.apiKey(&router, BuyRoutes.Operations.getBuyConfig, buy.getBuyConfig)
        cdp.apiKey(&router, BuyRoutes.Operations.getBuyOptions, buy.getBuyOptions)
        cdp.apiKey(&router, BuyRoutes.Operations.createBuyQuote, buy.createBuyQuote)
        let transactions = TransactionsRoutes(transactions: transactions)
        cdp.apiKey(
            &router, TransactionsRoutes.Operations.listUserBuyTransactions, transactions.listUserBuyTransactions)
        cdp.apiKey(
            &router, TransactionsRoutes.Operations.listBuyTransactions,
            transactions.listBuyTransactions)

        // The Headless onramp: guest phone verification, limits, Apple Pay and Google Pay orders.
        let headless = HeadlessRoutes(
            orders: guestCheckout, verifications: verifications, limitUpgrades: LimitUpgradeService(context: context),
            idempotencySecrets: context.idempotencySecrets)
        cdp.apiKey(
            &router, HeadlessRoutes.Operations.createVerification,
            headless.createVerification)
        cdp.apiKey(
            &router, HeadlessRoutes.Operations.submitVerification, headless.submitVerification)
        cdp.apiKey(
            &router, HeadlessRoutes.Operations.userLimits, headless.userLimits)
        cdp.apiKey(
            &router, HeadlessRoutes.Operations.requestLimitUpgrade,
            headless.requestLimitUpgrade)
        cdp.apiKey(
            &router, HeadlessRoutes.Operations.createOrder, headless.createOrder)
        cdp.apiKey(
            &router, HeadlessRoutes.Operations.getOrder,
            headless.getOrder)

        // The offramp: sells and their quotes.
        let offramp = OfframpRoutes(service: offramp, hosted: hosted)
        cdp.apiKey(
            &router, OfframpRoutes.Operations.listUserSells, offramp.listUserSells)
        cdp.apiKey(
            &router, OfframpRoutes.Operations.listSells, offramp.listSells)
        cdp.apiKey(&router, OfframpRoutes.Operations.createQuote, offramp.createQuote)
        cdp.apiKey(
            &router, OfframpRoutes.Operations.getSellConfig, offramp.getSellConfig)
        cdp.apiKey(
            &router, OfframpRoutes.Operations.getSellOptions, offramp.getSellOptions)

        // Webhook subscriptions: the API key, checked by each route (reads outside the project's test clock).
        let subscriptions = WebhookSubscriptionRoutes(service: webhooks, authenticator: authenticator)
        cdp.apiKey(
            &router, WebhookSubscriptionRoutes.Operations.createSubscription, subscriptions.createSubscription)
        cdp.apiKey(
            &router, WebhookSubscriptionRoutes.Operations.listSubscriptions, subscriptions.listSubscriptions)
        router.add(
            WebhookSubscriptionRoutes.Operations.getSubscription, subscriptions.getSubscription)
        router.add(
            WebhookSubscriptionRoutes.Operations.updateSubscription, subscriptions.updateSubscription)
        router.add(
            WebhookSubscriptionRoutes.Operations.deleteSubscription, subscriptions.deleteSubscription)
        router.add(
            WebhookSubscriptionRoutes.Operations.listSubscriptionEvents, subscriptions.listSubscriptionEvents)

        // Test clocks (test-mode projects only).
        let testClockRoutes = TestClockRoutes(context: context)
        cdp.apiKey(
            &router, TestClockRoutes.Operations.advanceCDP,
            testClockRoutes.advanceCDP)
    }
}

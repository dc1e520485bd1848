import HTTPServer
import OnrampServices

/// Every page a person's browser opens (the App2App handoff, the hosted onramp and offramp, the Headless
/// payment buttons, the Embedded sandbox's 3-D Secure, identity and Link consent pages), one line each:
/// the operation (its method, path and what the OpenAPI description shows) and the handler. A page is opened by the
/// single-use token or session its link carries, never by an API key; errors are HTML pages.
struct PageRouteTable: Sendable {
    let context: ServerContext
    let handoff: HandoffService
    let hosted: HostedOnrampService
    let offramp: OfframpService
    let guestCheckout: GuestCheckoutService
    let verifications: VerificationService

    func register(on router: inout Router) {
        for prefix in [
            "/buy/", HandoffRoutes.pagePath, "/v2/api-onramp/", EmbeddedOrderPage.path, OfframpService.pagePath,
            "/embedded/test/",
        ] {
            router.setErrorRenderer(PageErrorRenderer(), forPathPrefix: prefix)
        }

        // App2App's hosted handoff, which redirects back with success, error or cancelled.
        let handoff = HandoffRoutes(service: handoff, catalogue: context.catalogue)
        router.add(
            HandoffRoutes.Operations.openPurchaseHandoffPage,
            handoff.openPurchaseHandoffPage)
        router.add(
            HandoffRoutes.Operations.submitPurchaseHandoff,
            handoff.submitPurchaseHandoff)

        // The hosted onramp's and offramp's single-use pages.
        let hostedOnramp = HostedOnrampRoutes(service: hosted)
        router.add(
            HostedOnrampRoutes.Operations.openHostedOnrampPage,
            hostedOnramp.openHostedOnrampPage)
        router.add(
            HostedOnrampRoutes.Operations.submitHostedOnrampPage,
            hostedOnramp.submitHostedOnrampPage)
        let offramp = OfframpRoutes(service: offramp, hosted: hosted)
        router.add(OfframpRoutes.Operations.sellPage, offramp.sellPage)
        router.add(OfframpRoutes.Operations.submitSellPage, offramp.submitSellPage)

        // The Headless onramp's Apple Pay and Google Pay buttons, their sheet and the order's status.
        let headless = HeadlessRoutes(
            orders: guestCheckout, verifications: verifications, limitUpgrades: LimitUpgradeService(context: context),
            idempotencySecrets: context.idempotencySecrets)
        for method in GuestPaymentMethod.allCases {
            router.add(HeadlessRoutes.Operations.buttonPage(for: method), headless.buttonPage(method))
            router.add(HeadlessRoutes.Operations.buttonSheet(for: method), headless.buttonSheet(method))
        }
        router.add(
            HeadlessRoutes.Operations.buttonOrderStatus, headless.buttonOrderStatus
        )
        router.add(
            HeadlessRoutes.Operations.embeddedOrderPage, headless.embeddedOrderPage)
        router.add(
            HeadlessRoutes.Operations.submitEmbeddedOrderPage,
            headless.submitEmbeddedOrderPage)
        router.add(HeadlessRoutes.Operations.sheetScript, headless.sheetScript)
        router.add(
            HeadlessRoutes.Operations.limitUpgradePage, headless.limitUpgradePage)
        router.add(
            HeadlessRoutes.Operations.submitLimitUpgradePage,
            headless.submitLimitUpgradePage)

        // The Embedded sandbox's pages: 3-D Secure, identity verification, Link consent.
        let testPages = HostedTestPages(context: context)
        router.add(
            HostedTestPages.Operations.showThreeDSecurePage, testPages.showChallenge
        )
        router.add(
            HostedTestPages.Operations.submitThreeDSecurePage,
            testPages.submitChallenge)
        let identityPage = IdentityVerificationPage(context: context)
        router.add(
            IdentityVerificationPage.Operations.showIdentityVerificationPage,
            identityPage.show)
        router.add(
            IdentityVerificationPage.Operations.submitIdentityVerificationPage,
            identityPage.submit)
        let linkAuthorize = LinkAuthorizePage(consumers: ConsumerRoutes(routes: StripeRoutes(context: context)))
        router.add(
            LinkAuthorizePage.Operations.showLinkAuthorizePage, linkAuthorize.show)
        router.add(
            LinkAuthorizePage.Operations.submitLinkAuthorizePage, linkAuthorize.submit)
    }
}

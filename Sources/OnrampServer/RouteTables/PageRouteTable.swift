import HTTPServer
import OnrampServices

/// Every page a person's browser opens (the App2App handoff, the hosted onramp and offramp, the Headless
/// payment buttons, the Embedded sandbox's 3-D Secure, identity and Link consent pages), one line each:
/// method, path, the operation the OpenAPI description shows, and the handler. A page is opened by the
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
            "GET", HandoffRoutes.pagePath, HandoffRoutes.Operations.openPurchaseHandoffPage,
            handoff.openPurchaseHandoffPage)
        router.add(
            "POST", HandoffRoutes.pagePath, HandoffRoutes.Operations.submitPurchaseHandoff,
            handoff.submitPurchaseHandoff)

        // The hosted onramp's and offramp's single-use pages.
        let hostedOnramp = HostedOnrampRoutes(service: hosted)
        router.add(
            "GET", HostedOnrampService.pagePath, HostedOnrampRoutes.Operations.openHostedOnrampPage,
            hostedOnramp.openHostedOnrampPage)
        router.add(
            "POST", HostedOnrampService.pagePath, HostedOnrampRoutes.Operations.submitHostedOnrampPage,
            hostedOnramp.submitHostedOnrampPage)
        let offramp = OfframpRoutes(service: offramp, hosted: hosted)
        router.add("GET", OfframpService.pagePath, OfframpRoutes.Operations.sellPage, offramp.sellPage)
        router.add("POST", OfframpService.pagePath, OfframpRoutes.Operations.submitSellPage, offramp.submitSellPage)

        // The Headless onramp's Apple Pay and Google Pay buttons, their sheet and the order's status.
        let headless = HeadlessRoutes(
            orders: guestCheckout, verifications: verifications, limitUpgrades: LimitUpgradeService(context: context),
            idempotencyHashKey: context.idempotencySecrets.requestHashKey)
        for method in GuestPaymentMethod.allCases {
            router.add(
                "GET", method.pagePath, HeadlessRoutes.Operations.buttonPage(for: method), headless.buttonPage(method))
            router.add(
                "POST", method.pagePath, HeadlessRoutes.Operations.buttonSheet(for: method),
                headless.buttonSheet(method))
        }
        router.add(
            "GET", PaymentButtonPage.statusPath, HeadlessRoutes.Operations.buttonOrderStatus, headless.buttonOrderStatus
        )
        router.add(
            "GET", EmbeddedOrderPage.path, HeadlessRoutes.Operations.embeddedOrderPage, headless.embeddedOrderPage)
        router.add(
            "POST", EmbeddedOrderPage.path, HeadlessRoutes.Operations.submitEmbeddedOrderPage,
            headless.submitEmbeddedOrderPage)
        router.add("GET", PaymentButtonPage.scriptPath, HeadlessRoutes.Operations.sheetScript, headless.sheetScript)
        router.add(
            "GET", LimitUpgradePage.path, HeadlessRoutes.Operations.limitUpgradePage, headless.limitUpgradePage)
        router.add(
            "POST", LimitUpgradePage.path, HeadlessRoutes.Operations.submitLimitUpgradePage,
            headless.submitLimitUpgradePage)

        // The Embedded sandbox's pages: 3-D Secure, identity verification, Link consent.
        let testPages = HostedTestPages(context: context)
        router.add(
            "GET", HostedTestPages.threeDSPath, HostedTestPages.Operations.showThreeDSecurePage, testPages.showChallenge
        )
        router.add(
            "POST", HostedTestPages.threeDSPath, HostedTestPages.Operations.submitThreeDSecurePage,
            testPages.submitChallenge)
        let identityPage = IdentityVerificationPage(context: context)
        router.add(
            "GET", IdentityVerificationPage.path, IdentityVerificationPage.Operations.showIdentityVerificationPage,
            identityPage.show)
        router.add(
            "POST", IdentityVerificationPage.path, IdentityVerificationPage.Operations.submitIdentityVerificationPage,
            identityPage.submit)
        let linkAuthorize = LinkAuthorizePage(consumers: ConsumerRoutes(routes: StripeRoutes(context: context)))
        router.add(
            "GET", LinkAuthorizePage.path, LinkAuthorizePage.Operations.showLinkAuthorizePage, linkAuthorize.show)
        router.add(
            "POST", LinkAuthorizePage.path, LinkAuthorizePage.Operations.submitLinkAuthorizePage, linkAuthorize.submit)
    }
}

import Foundation
import OnrampClient
import PartnerBackendKit

/// The Embedded Components purchase of `onramp demo`: the app with `CryptoOnrampCoordinator` (headless
/// presenters), the partner backend creating intents, sessions and checkouts, settlement by webhook.
@MainActor struct EmbeddedDemo {
    let sandbox: DemoSandbox
    let user = "demo-user-embedded"
    let email = "ada.demo@example.com"
    let wallet = "0x52908400098527886E0F7030069857D2E4169EE7"

    func run() async throws {
        let say = DemoCommand.say
        say("")
        say("Embedded Components (Stripe-style)")
        let credentials = sandbox.credentials
        let backend = EmbeddedPartnerBackend(
            serverURL: sandbox.rootURL, secretKey: credentials.stripeSecretKey,
            oauthClientId: credentials.oauthClientId, oauthClientSecret: credentials.oauthClientSecret,
            receiver: sandbox.receiver)
        sandbox.receiver.setStripeSecret(
            try await backend.createWebhookEndpoint(url: sandbox.webhooks.baseURL + PartnerBackendServer.stripePath))
        say(
            "  1. backend: webhook endpoint \(sandbox.webhooks.baseURL)\(PartnerBackendServer.stripePath) for crypto.onramp_session.updated"
        )

        STPAPIClient.shared.publishableKey = credentials.stripePublishableKey
        STPAPIClient.shared.apiBaseURL = sandbox.rootURL
        let coordinator = try await CryptoOnrampCoordinator.create(appearance: LinkAppearance(style: .alwaysDark))
        let viewController = PresentingViewController()
        let exists = try await coordinator.hasLinkAccount(with: email)
        if !exists {
            try await coordinator.registerLinkUser(
                email: email, fullName: "Ada Verified", phone: "+14155550123", country: "US")
        }
        say("  2. app: \(email) had \(exists ? "a" : "no") Link account\(exists ? "" : "; registered one")")

        let intent = try await backend.createAuthIntent(email: email)
        guard
            case .consented(let customerId) = try await coordinator.authorize(
                linkAuthIntentId: intent, from: viewController)
        else { throw DemoFailure("consent was not given") }
        try await backend.retrieveTokens(linkAuthIntentId: intent, userRef: user)
        say(
            "  3. app: one-time code 000000 and consent for \(intent); customer \(customerId); backend holds the OAuth tokens"
        )

        try await coordinator.attachKYCInfo(
            info: KycInfo(
                firstName: "Ada", lastName: "Verified", idNumber: "000000000",
                address: Address(
                    line1: "address_full_match", city: "San Francisco", state: "CA", postalCode: "94103", country: "US"),
                dateOfBirth: .init(day: 1, month: 2, year: 1990)))
        let tier = try await backend.waitForTier(customerId: customerId, userRef: user)
        guard tier == "verified" else { throw DemoFailure("KYC tier L1 is \(tier ?? "unknown")") }
        guard try await coordinator.verifyKYCInfo(from: viewController) == .confirmed else {
            throw DemoFailure("KYC not confirmed")
        }
        say("  4. app: KYC attached and confirmed; backend sees tier L1 verified")

        try await coordinator.registerWalletAddress(walletAddress: wallet, network: .base)
        guard let display = try await coordinator.collectPaymentMethod(type: .card, from: viewController) else {
            throw DemoFailure("no payment method selected")
        }
        let token = try await coordinator.createCryptoPaymentToken()
        say(
            "  5. app: wallet \(wallet.prefix(10))… on base registered; \(display.label) selected; payment token \(token)"
        )

        let session = try await backend.createOnrampSession(
            userRef: user, customerId: customerId, paymentToken: token, sourceAmount: "50.00", network: "base",
            walletAddress: wallet)
        say(
            "  6. backend: onramp session \(session.id) for 50.00 USD → \(session.destinationAmount ?? "?") USDC (\(session.status))"
        )

        let context = HeadlessAuthenticationContext(viewController: viewController)
        let result = try await coordinator.performCheckout(onrampSessionId: session.id, authenticationContext: context)
        {
            id in
            DemoCommand.say("     clientSecretProvider → backend checkout of \(id)")
            return try await backend.checkout(sessionId: id, userRef: "demo-user-embedded")
        }
        guard result == .completed else { throw DemoFailure("checkout was \(result)") }
        say(
            "  7. app: performCheckout completed; nothing credited yet (ledger: \(sandbox.ledger.credits(for: user).count) credits)"
        )

        guard await sandbox.eventually(15, { !sandbox.ledger.credits(for: user).isEmpty }) else {
            throw DemoFailure("no fulfillment_complete webhook within 15 s")
        }
        let credit = sandbox.ledger.credits(for: user)[0]
        say(
            "  8. backend: fulfillment_complete credited \(credit.amount) \(credit.currency), tx \(credit.txHash ?? "?")"
        )
        if sandbox.keepsObjects {
            say("  console: \(sandbox.consoleLink("/console/onramp_sessions/\(session.id)"))")
            say("  console: \(sandbox.consoleLink("/console/customers/\(customerId)"))")
        }
    }
}

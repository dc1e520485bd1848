import AppAttest
import Foundation
import OnrampBackend
import OnrampClient
import OnrampServer
import OnrampServices
import PartnerBackendKit

/// The App2App purchase of `onramp demo`: the app with `App2AppClient`, the user on the hosted page, the
/// partner backend confirming settlement by webhook and by the transactions API.
struct App2AppDemo {
    let sandbox: DemoSandbox
    let user = "demo-user-app2app"
    let wallet = "0x52908400098527886E0F7030069857D2E4169EE7"

    func run() async throws {
        let say = DemoCommand.say
        say("")
        say("App2App (Coinbase-style)")
        let backend = App2AppPartnerBackend(serverURL: sandbox.rootURL, apiKey: try sandbox.cdpKey)
        let subscription = try await backend.subscribeWebhooks(
            url: sandbox.webhooks.baseURL + PartnerBackendServer.cdpPath)
        sandbox.receiver.setCDPSecret(subscription.secret)
        say(
            "  1. backend: subscribed \(sandbox.webhooks.baseURL)\(PartnerBackendServer.cdpPath) to onramp.transaction.*"
        )

        let client = App2AppClient(
            configuration: App2AppConfiguration(
                platformBaseURL: sandbox.rootURL.appendingPathComponent("platform"),
                projectId: sandbox.credentials.projectId, bundleId: DemoSandbox.bundleId),
            attestation: SoftwareAppAttestProvider(
                attester: SoftwareAttester(
                    authority: sandbox.authority, appId: DemoSandbox.appId, environment: .production)),
            registrations: InMemoryAttestationRegistrationStore())
        let registration = try await client.register()
        say(
            "  2. app: App Attest key registered (keyId \(registration.keyId.prefix(12))…, appId \(registration.appId))"
        )

        let purchase = App2AppPurchase(
            purchaseCurrency: "USDC", destinationNetwork: "base", destinationAddress: wallet,
            redirectUrl: "https://\(DemoSandbox.redirectHost)/onramp-return", paymentAmount: "25.00",
            paymentCurrency: "USD", paymentMethod: "CARD", partnerUserRef: user, country: "US", subdivision: "CA")
        say("  3. app: purchase challenge for 25.00 USD of USDC on base → \(wallet.prefix(10))…, assertion signed")
        guard case .app2App(let onrampURL) = try await client.launch(purchase) else {
            throw DemoFailure("the capability check chose the hosted fallback")
        }
        say(
            "  4. app: com.coinbase.cdp.onramp:// available; session created, opening \(onrampURL.absoluteString.prefix(72))…"
        )

        let redirectURL = try await HeadlessHandoffBrowser().complete(onrampURL, action: .confirm)
        let redirect = try OnrampRedirect(url: redirectURL)
        guard case .success(let redirectTransactionId, _, _, _) = redirect else {
            throw DemoFailure("the redirect was \(redirect)")
        }
        say("  5. user confirmed on the hosted page; redirect status=success transactionId=\(redirectTransactionId)")
        say(
            "  6. app: redirect shown to the user, nothing credited (ledger: \(sandbox.ledger.credits(for: user).count) credits)"
        )

        guard await sandbox.eventually(15, { !sandbox.ledger.credits(for: user).isEmpty }) else {
            throw DemoFailure("no settled webhook within 15 s")
        }
        let settlement = try await backend.transactions.waitForSettlement(partnerUserRef: user, timeout: .seconds(10)) {
            $0.walletAddress?.lowercased() == wallet.lowercased()
        }
        let transaction = try await backend.transactions.transactions(partnerUserRef: user).first {
            $0.transactionId == settlement.transactionId
        }
        say(
            "  7. backend: transactions API (JWT) agrees: paid \(transaction?.paymentTotal?.value ?? "?") "
                + "\(transaction?.paymentTotal?.currency ?? ""), received \(settlement.amount ?? "?") "
                + "\(settlement.currency ?? ""), tx \(settlement.txHash ?? "?")")

        let credited = sandbox.ledger.credits(for: user)
        guard credited.count == 1, let eventId = credited.first?.eventId else {
            throw DemoFailure("expected one credit, found \(credited.count)")
        }
        try sandbox.redeliver(eventId: eventId)
        say("  8. operator: success event \(eventId) redelivered (at-least-once delivery)")
        guard await sandbox.eventually(15, { sandbox.receivedDuplicate(eventId) }),
            sandbox.ledger.credits(for: user).count == 1
        else { throw DemoFailure("the redelivery was not ignored") }
        say("  9. backend: still one credit for \(user): \(sandbox.ledger.balance(of: user, currency: "USDC")) USDC")
        if sandbox.keepsObjects {
            say("  console: \(sandbox.consoleLink("/console/transactions/\(settlement.transactionId)"))")
            say("  console: \(sandbox.consoleLink("/console/events/\(eventId)"))")
        }
    }
}

/// A demo step that did not turn out as expected.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

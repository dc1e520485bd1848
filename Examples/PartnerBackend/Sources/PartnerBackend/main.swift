import Foundation
import OnrampCrypto
import PartnerBackendKit

/// The example partner backend as a process: the app-facing endpoints (auth intents, sessions, checkout,
/// ledger), the webhook endpoints for both schemes subscribed on the onramp server, and a printed line per
/// delivery and credit. Configure it with the values `onramp project create --json` prints:
///
///     ONRAMP_URL=http://127.0.0.1:8080 CDP_API_KEY_ID=… CDP_API_KEY_SECRET=… \
///     STRIPE_SECRET_KEY=sk_test_… OAUTH_CLIENT_ID=… OAUTH_CLIENT_SECRET=… PORT=9090 partner-backend
let environment = ProcessInfo.processInfo.environment
func setting(_ name: String) -> String {
    guard let value = environment[name], !value.isEmpty else {
        FileHandle.standardError.write(Data("partner-backend: set \(name)\n".utf8))
        exit(64)
    }
    return value
}
guard let serverURL = URL(string: setting("ONRAMP_URL")) else { exit(64) }
let ledger = PartnerLedger()
let receiver = PartnerWebhookReceiver(ledger: ledger) { received in
    if let credit = received.credit {
        print("credited \(credit.amount) \(credit.currency) to \(credit.userRef) (event \(credit.eventId))")
    } else {
        print("\(received.type) \(received.eventId)\(received.duplicate ? " (duplicate, ignored)" : "")")
    }
    fflush(nil)
}
let embedded = EmbeddedPartnerBackend(
    serverURL: serverURL, secretKey: setting("STRIPE_SECRET_KEY"), oauthClientId: setting("OAUTH_CLIENT_ID"),
    oauthClientSecret: setting("OAUTH_CLIENT_SECRET"), receiver: receiver)
let server = try PartnerBackendServer(
    receiver: receiver, embedded: embedded, port: Int(environment["PORT"] ?? "") ?? 9090)
let app2App = App2AppPartnerBackend(
    serverURL: serverURL, apiKey: try CDPAPIKey(id: setting("CDP_API_KEY_ID"), secret: setting("CDP_API_KEY_SECRET")))
let subscription = try await app2App.subscribeWebhooks(url: server.baseURL + PartnerBackendServer.cdpPath)
receiver.setCDPSecret(subscription.secret)
receiver.setStripeSecret(
    try await embedded.createWebhookEndpoint(url: server.baseURL + PartnerBackendServer.stripePath))
print(
    "partner backend on \(server.baseURL); CDP subscription \(subscription.subscriptionId); Stripe endpoint registered")
fflush(nil)
while true { try await Task.sleep(for: .seconds(3600)) }

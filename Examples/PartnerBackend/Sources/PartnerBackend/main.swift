import Dispatch
import Foundation
import OnrampCrypto
import PartnerBackendKit

/// The example partner backend as a process: listens for webhooks, subscribes itself to the onramp server,
/// and prints each credit. Configure it with the values `onramp project create --json` prints:
///
///     ONRAMP_URL=http://127.0.0.1:8080 CDP_API_KEY_ID=… CDP_API_KEY_SECRET=… PORT=9090 partner-backend
let environment = ProcessInfo.processInfo.environment
guard let serverText = environment["ONRAMP_URL"], let serverURL = URL(string: serverText),
    let keyId = environment["CDP_API_KEY_ID"], let keySecret = environment["CDP_API_KEY_SECRET"]
else {
    FileHandle.standardError.write(Data("set ONRAMP_URL, CDP_API_KEY_ID and CDP_API_KEY_SECRET\n".utf8))
    exit(64)
}
let ledger = PartnerLedger()
let receiver = PartnerWebhookReceiver(ledger: ledger) { received in
    if let credit = received.credit {
        print("credited \(credit.amount) \(credit.currency) to \(credit.userRef) (event \(credit.eventId))")
    } else {
        print("\(received.type) \(received.eventId)\(received.duplicate ? " (duplicate, ignored)" : "")")
    }
    fflush(nil)
}
let webhooks = try PartnerWebhookServer(receiver: receiver, port: Int(environment["PORT"] ?? "") ?? 9090)
let backend = App2AppPartnerBackend(serverURL: serverURL, apiKey: try CDPAPIKey(id: keyId, secret: keySecret))
let subscription = try await backend.subscribeWebhooks(url: webhooks.baseURL + PartnerWebhookServer.cdpPath)
receiver.setCDPSecret(subscription.secret)
if let stripeSecret = environment["STRIPE_WEBHOOK_SECRET"] { receiver.setStripeSecret(stripeSecret) }
print("partner backend on \(webhooks.baseURL); CDP subscription \(subscription.subscriptionId)")
fflush(nil)
while true { try await Task.sleep(for: .seconds(3600)) }

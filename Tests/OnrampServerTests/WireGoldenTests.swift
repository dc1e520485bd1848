import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire
import Testing

/// The main wire objects of both families against their golden files (`Golden/*.json`): what the real
/// clients decode — Stripe's onramp session, consumer session, crypto customer, payment method, event list and
/// error; Coinbase's App Attest registration, purchase challenge and session, settled transaction
/// and error — keeps its members, their order and their types, on either database.
@Suite(.serialized, .blocking) struct WireGoldenTests {
    private static func json(_ reply: StripeTestClient.Reply) throws -> JSONValue {
        try JSONParser().parse(Array(reply.text.utf8))
    }

    @Test func stripeFamilyObjects() throws {
        let server = try EmbeddedTestServer()
        let email = "golden@example.com"
        try GoldenFile.expect(
            Self.json(try server.sdk.post("/v1/consumers/sessions/lookup", [("email_address", email)])),
            matches: "stripe-consumer-lookup-unknown")
        let user = try server.signUpAndAuthorize(email: email)
        try GoldenFile.expect(
            Self.json(try server.sdk.post("/v1/consumers/sessions/lookup", [("email_address", email)])),
            matches: "stripe-consumer-lookup-known")
        try GoldenFile.expect(Self.json(try server.collectKYC(user)), matches: "stripe-crypto-customer-verified")
        let wallet = try server.registerWallet(user)
        let method = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"), ("card[cvc]", "123"),
            ])
        try GoldenFile.expect(Self.json(method), matches: "stripe-payment-method-card")
        let token = try server.token(user, paymentMethod: method.string("id"))
        let created = try server.createSession(user, token: token, wallet: wallet)
        try GoldenFile.expect(Self.json(created), matches: "stripe-onramp-session-requires-payment")
        let id = created.string("id")
        _ = try server.checkout(user, id)
        try GoldenFile.expect(
            Self.json(try server.waitForSession(id, status: "fulfillment_complete")),
            matches: "stripe-onramp-session-fulfillment-complete")
        let events = try server.backend.get("/v1/events", [("limit", "1")])
        try GoldenFile.expect(Self.json(events), matches: "stripe-event-list")
        let refused = try server.backend.post("/v1/crypto/onramp_sessions/\(id)/checkout", [], headers: [])
        try GoldenFile.expect(Self.json(refused), matches: "stripe-error")
    }

    @Test(arguments: DatabaseDriver.all)
    func coinbaseFamilyObjects(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        var device = try TestDevice(server: server)
        let registration = try device.register()
        try GoldenFile.expect(registration.body, matches: "cdp-app-attest-registration")
        let challenge = try device.purchaseChallenge(device.purchase())
        try GoldenFile.expect(challenge.body, matches: "cdp-purchase-challenge")
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        try GoldenFile.expect(session.body, matches: "cdp-purchase-session")
        let url = session.body["session"]?["onrampUrl"]?.stringValue ?? ""
        let result = try HandoffBrowser(port: server.port).complete(url, action: "confirm")
        #expect(result.status == 303)
        let path = "/onramp/v1/buy/user/user-1/transactions"
        var listed = JSONValue.null
        for _ in 0..<1500 {
            listed = try server.request(
                "GET", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")]
            ).body
            if listed["transactions"]?.arrayValue?.first?["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS" { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        try GoldenFile.expect(listed, matches: "cdp-buy-transactions-settled")
        let refused = try device.purchaseChallenge(device.purchase(removing: ["destinationAddress"]))
        try GoldenFile.expect(refused.body, matches: "cdp-error")
    }
}

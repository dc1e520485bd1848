import Foundation
import HTTPServer
import OnrampCore
import OnrampStore
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// An onramp server on a real loopback port with a temporary database (SQLite, or a fresh schema of
/// the PostgreSQL at `ONRAMP_TEST_POSTGRES_URL` under `scripts/with-postgres.sh`) and one provisioned
/// project, plus the steps of the Embedded flow as a partner backend and the client SDK take them.
/// ``backend`` and ``sdk`` go through the router in process unless the test asks for `.live`.
final class EmbeddedTestServer: @unchecked Sendable {
    let sandbox: OnrampSandbox
    let credentials: ProjectProvisioner.Credentials
    /// Where its database is, for a second instance on the same one.
    let databaseURL: String
    /// The PostgreSQL schema to drop at the end, when running on PostgreSQL.
    private let schema: TestSchema?
    let clock: any OnrampCore.Clock
    /// Whether the background steps run; when not, the polling helpers take them.
    let runsWorkers: Bool
    /// How ``backend`` and ``sdk`` reach the server.
    let transport: TestTransport
    var server: HTTPServer { sandbox.server }
    var application: OnrampApplication { sandbox.application }
    var database: any Database { sandbox.database }
    var directory: URL { sandbox.directory }
    var port: Int { sandbox.port }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server; `clock` drives expiry, `settlementDelay` how long fulfilment takes,
    /// `clientRequestsPerSecond` the per-address limit on publishable-key calls (`nil`: none) and
    /// `startWorkers` whether the background steps run (off: a test calls them itself), `poolSize` the
    /// PostgreSQL pool's connections (the default otherwise), and `verificationDelay` how long the simulated
    /// KYC review takes (shorter than the server's 2 s: the tests poll for it), `appIds` the project's App IDs
    /// and `trustTestRoot` whether App Attest objects of the sandbox's test authority verify.
    init(
        clock: any OnrampCore.Clock = SystemClock(), settlementDelay: TimeInterval = 0.2, livemode: Bool = false,
        settlement: any SettlementProvider = SimulatedSettlement(), clientRequestsPerSecond: Double? = nil,
        startWorkers: Bool = true, poolSize: Int? = nil, verificationDelay: TimeInterval = 0.2,
        driver: DatabaseDriver? = nil, appIds: [String] = [], trustTestRoot: Bool = false,
        transport: TestTransport = .inProcess
    ) throws {
        self.transport = transport
        let onPostgres = ProcessInfo.processInfo.environment["ONRAMP_TEST_POSTGRES_URL"] != nil
        schema = try TestSchema(driver ?? (onPostgres ? .postgres : .sqlite))
        self.clock = clock
        runsWorkers = startWorkers
        // Workers poll every 0.1 s: polling every 50 ms, an idle server cost 3 % of a core, and 20-odd run at once.
        let sandbox = try OnrampSandbox(
            databaseURL: schema.map { url in
                poolSize.map { url.url + (url.url.contains("?") ? "&" : "?") + "pool_size=\($0)" } ?? url.url
            }, clock: clock,
            settlementDelay: settlementDelay, verificationDelay: verificationDelay, settlement: settlement,
            trustTestRoot: trustTestRoot, clientRequestsPerSecond: clientRequestsPerSecond,
            workerInterval: startWorkers ? 0.1 : nil)
        self.sandbox = sandbox
        databaseURL = schema?.url ?? "sqlite:\(sandbox.directory.path)/onramp.db"
        credentials = try ProjectProvisioner(database: sandbox.database, clock: clock).createProject(
            name: "Embedded test", appIds: appIds, redirectHosts: [], keyType: .es256, livemode: livemode)
    }

    deinit {
        sandbox.shutdown()
        schema?.drop()
    }

    /// Shuts the server down and counts the searches of each index of its PostgreSQL database
    /// (``TestSchema/indexScans()``).
    func shutDownAndCountIndexScans() throws -> [String: Int64] {
        guard let schema else { throw WebhookMissingPostgres() }
        sandbox.shutdown()
        return try schema.indexScans()
    }

    /// A client with the secret key (partner backend).
    var backend: StripeTestClient { client(key: credentials.stripeSecretKey) }
    /// A client with the publishable key (client SDK).
    var sdk: StripeTestClient { client(key: credentials.stripePublishableKey) }
    /// A client with `key`, by the server's transport.
    func client(key: String) -> StripeTestClient { sandbox.stripeClient(key: key, transport: transport) }

    /// A signed-in user as the tests carry it around.
    struct User {
        let email: String
        let consumerSecret: String
        let customerId: String
        var accessToken: String
        var refreshToken: String
        var oauth: [(String, String)] { [("Stripe-OAuth-Token", accessToken)] }
        var credentials: (String, String) { ("credentials[consumer_session_client_secret]", consumerSecret) }
    }

    /// Sign-up, LinkAuthIntent, lookup by intent, OTP with consent, tokens: a new email to a consented user.
    func signUpAndAuthorize(
        email: String = "user-\(UUID().uuidString.prefix(8))@example.com",
        scopes: String = "kyc.status:read,crypto:ramp,auth.persist_login:read"
    ) throws -> User {
        let sdk = self.sdk
        let lookup = try sdk.post("/v1/consumers/sessions/lookup", [("email_address", email)])
        #expect(lookup.status == 200 && lookup["exists"] as? Bool == false, "\(lookup)")
        let signUp = try sdk.post(
            "/v1/consumers/accounts/sign_up",
            [
                ("email_address", email), ("phone_number", "+14155550123"), ("country", "US"),
                ("legal_name", "Ada Verified"),
            ])
        #expect(signUp.status == 200, "\(signUp)")
        let intent = try backend.postJSON(
            "/v1/link_auth_intent",
            ["email": email, "oauth_client_id": credentials.oauthClientId, "oauth_scopes": scopes])
        #expect(intent.status == 200 && intent.string("id").hasPrefix("lai_"), "\(intent)")
        let intentId = intent.string("id")
        let session = try sdk.post("/v1/consumers/sessions/lookup", [("link_auth_intent_id", intentId)])
        let secret = session.string("consumer_session.client_secret")
        let credential = ("credentials[consumer_session_client_secret]", secret)
        let started = try sdk.post("/v1/consumers/sessions/start_verification", [credential, ("type", "SMS")])
        #expect(started.status == 200, "\(started)")
        let confirmed = try sdk.post(
            "/v1/consumers/sessions/confirm_verification",
            [credential, ("code", "000000"), ("consent_granted", "true")])
        #expect(confirmed.string("link_auth_intent.status") == "consented", "\(confirmed)")
        let tokens = try backend.post("/v1/link_auth_intent/\(intentId)/tokens")
        #expect(tokens.string("access_token").hasPrefix("liwltoken_"), "\(tokens)")
        return User(
            email: email, consumerSecret: secret, customerId: confirmed.string("crypto_customer_id"),
            accessToken: tokens.string("access_token"), refreshToken: tokens.string("refresh.refresh_token"))
    }

    /// KYC data collection (L0 + L1 fields), then polls the customer until phone and KYC are settled.
    @discardableResult
    func collectKYC(_ user: User, firstName: String = "Ada", lastName: String = "Verified", state: String = "CA")
        throws -> StripeTestClient.Reply
    {
        let kyc = try sdk.post(
            "/v1/crypto/internal/kyc_data_collection",
            [
                user.credentials, ("first_name", firstName), ("last_name", lastName), ("id_number", "000000000"),
                ("id_type", "social_security_number"), ("line1", "address_full_match"), ("city", "San Francisco"),
                ("state", state), ("zip", "94103"), ("country", "US"), ("dob[day]", "1"), ("dob[month]", "2"),
                ("dob[year]", "1990"),
            ])
        #expect(kyc.status == 200, "\(kyc)")
        return try waitForCustomer(user) { reply in
            (reply["verifications"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String != "pending" } == true
        }
    }

    /// Polls `GET /v1/crypto/customers/{id}` until `done` holds (10 s at most).
    func waitForCustomer(_ user: User, until done: (StripeTestClient.Reply) -> Bool) throws -> StripeTestClient.Reply {
        var reply = try backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
        let deadline = Date().addingTimeInterval(30)
        while !done(reply) && Date() < deadline {
            advanceManualClock(by: 1)
            if runsWorkers {
                Thread.sleep(forTimeInterval: 0.05)
            } else {
                try application.embedded.finishDueVerifications()
            }
            reply = try backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
        }
        return reply
    }

    /// Registers a Base wallet and returns its address.
    @discardableResult
    func registerWallet(
        _ user: User, address: String = "0x52908400098527886E0F7030069857D2E4169EE7", network: String = "base"
    )
        throws -> String
    {
        let wallet = try sdk.post(
            "/v1/crypto/internal/wallet", [user.credentials, ("wallet_address", address), ("network", network)])
        #expect(wallet.status == 200, "\(wallet)")
        return address
    }

    /// Creates a card payment method from `number` and turns it into a `cpt_…` token.
    func paymentToken(_ user: User, card number: String = "4242424242424242") throws -> String {
        let method = try sdk.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", number), ("card[exp_month]", "12"), ("card[exp_year]", "2034"),
                ("card[cvc]", "123"),
            ])
        #expect(method.status == 200, "\(method)")
        return try token(user, paymentMethod: method.string("id"))
    }

    /// Turns a payment method id into a payment token.
    func token(_ user: User, paymentMethod: String) throws -> String {
        let token = try sdk.post(
            "/v1/crypto/internal/payment_token",
            [user.credentials, ("payment_method", paymentMethod), ("crypto_customer_id", user.customerId)])
        #expect(token.string("id").hasPrefix("cpt_"), "\(token)")
        return token.string("id")
    }

    /// Creates an onramp session.
    func createSession(
        _ user: User, token: String, wallet: String, amount: String = "50.00", network: String = "base",
        extra: [(String, String)] = []
    ) throws -> StripeTestClient.Reply {
        try backend.post(
            "/v1/crypto/onramp_sessions",
            [
                ("ui_mode", "headless"), ("crypto_customer_id", user.customerId), ("payment_token", token),
                ("source_amount", amount), ("source_currency", "usd"), ("destination_currency", "usdc"),
                ("destination_network", network), ("destination_networks[0]", network), ("wallet_address", wallet),
                ("customer_ip_address", "203.0.113.7"),
            ] + extra, headers: user.oauth)
    }

    /// Checks out a session.
    func checkout(_ user: User, _ id: String, _ form: [(String, String)] = []) throws -> StripeTestClient.Reply {
        try backend.post("/v1/crypto/onramp_sessions/\(id)/checkout", form, headers: user.oauth)
    }

    /// A new user's session, created and checked out (`fulfillment_processing`): the user and its id.
    func paidSession() throws -> (user: User, id: String) {
        let user = try signUpAndAuthorize()
        try collectKYC(user)
        let wallet = try registerWallet(user)
        let token = try paymentToken(user)
        let id = try createSession(user, token: token, wallet: wallet).string("id")
        let paid = try checkout(user, id)
        #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        return (user, id)
    }

    /// Polls the session until its status is `status` (10 s at most).
    func waitForSession(_ id: String, status: String) throws -> StripeTestClient.Reply {
        var reply = try backend.get("/v1/crypto/onramp_sessions/\(id)")
        let deadline = Date().addingTimeInterval(30)
        while reply.string("status") != status && Date() < deadline {
            advanceManualClock(by: 1)
            Thread.sleep(forTimeInterval: 0.05)
            reply = try backend.get("/v1/crypto/onramp_sessions/\(id)")
        }
        return reply
    }

    /// The event types and statuses in the outbox for session `id`, oldest first.
    func sessionEvents(_ id: String) throws -> [String] {
        try database.read { connection in
            try connection.query(
                "SELECT type, payload FROM outbox_events WHERE family = 'stripe' ORDER BY created_at, id", []
            ).compactMap { row -> String? in
                let payload = try row.string("payload")
                guard payload.contains(id),
                    let json = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                    let object = (json["data"] as? [String: Any])?["object"] as? [String: Any]
                else { return nil }
                return "\(try row.string("type")):\(object["status"] as? String ?? "")"
            }
        }
    }

    private func advanceManualClock(by seconds: TimeInterval) {
        (clock as? ManualClock)?.advance(by: seconds)
    }

    /// A URL's query value.
    static func queryValue(_ url: String, _ name: String) -> String {
        URLComponents(string: url)?.queryItems?.first(where: { $0.name == name })?.value ?? ""
    }

    /// Submits a hosted test page's form the way a browser does.
    func submitPage(path: String, _ form: [(String, String)]) throws -> RawHTTPClient.Response {
        try RawHTTPClient(port: port).request(
            "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(StripeTestClient.formEncode(form).utf8))
    }
}

import Foundation
import HTTPServer
import OnrampCore
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The sandbox console: nothing without the operator token, every client-supplied value shown as
/// text, actions refused from other sites, and a walk in headless Chromium from a project to a
/// transaction to its webhook attempt and a resend that the receiver really gets.
@Suite(.blocking) struct ConsoleTests {
    /// A settled App2App purchase with one webhook endpoint, on a live server.
    struct Purchase {
        let server: TestServer
        let receiver: WebhookReceiver
        let transactionId: String
        let eventId: String
        let subscriptionId: String
    }

    static let hostile = "<script>alert('x')</script>"
    static let partnerCredential = "partner-credential-8c1f"

    /// Registers, buys with a hostile `partnerUserRef`, confirms, and waits for the success webhook.
    static func purchase(driver: DatabaseDriver = .sqlite) throws -> Purchase {
        let server = try TestServer(driver: driver)
        let receiver = try WebhookReceiver()
        let subscription = try WebhookOperations(database: server.database).createSubscription(
            projectId: server.projectId, family: .cdp, url: receiver.url, eventTypes: ["*"], description: hostile)
        // A header of the endpoint's own (its receiver's credential): sent, never kept in the attempt log.
        try server.database.transaction {
            try $0.execute(
                "UPDATE webhook_subscriptions SET headers = ? WHERE id = ?",
                [.text(#"{"X-Partner-Auth":"\#(partnerCredential)"}"#), .text(subscription.id)])
        }
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase([("partnerUserRef", .string(hostile))]))
        #expect(challenge.status == 201, "\(challenge.body)")
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let settled = "SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.success'"
        for _ in 0..<1500 where try server.count(settled) == 0 { Thread.sleep(forTimeInterval: 0.02) }
        let transactionId = try server.database.read {
            try $0.query("SELECT transaction_id FROM onramp_transactions", []).first?.string("transaction_id")
        }
        let eventId = try server.database.read {
            try $0.query("SELECT id FROM outbox_events WHERE type = 'onramp.transaction.success'", []).first?
                .string("id")
        }
        // Delivered, and the attempt recorded (the receiver hears the request before the attempt commits).
        let delivered = "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ? AND status = 'succeeded'"
        for _ in 0..<1500 where try server.count(delivered, [.text(try #require(eventId))]) == 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(try server.count(delivered, [.text(try #require(eventId))]) == 1)
        return Purchase(
            server: server, receiver: receiver, transactionId: try #require(transactionId),
            eventId: try #require(eventId), subscriptionId: subscription.id)
    }

    /// A console request in process, from loopback, with the operator's cookie unless `signedIn` is false.
    static func get(_ server: TestServer, _ path: String, signedIn: Bool = true, from address: String = "127.0.0.1")
        -> HTTPResponse
    {
        get(server.application, path, signedIn: signedIn, from: address)
    }

    /// A console request to `application` in process.
    static func get(
        _ application: OnrampApplication, _ path: String, signedIn: Bool = true, from address: String = "127.0.0.1"
    ) -> HTTPResponse {
        let parts = path.split(separator: "?", maxSplits: 1)
        let query: [(String, String)] =
            parts.count < 2
            ? []
            : parts[1].split(separator: "&").map { pair in
                let nameValue = pair.split(separator: "=", maxSplits: 1)
                return (
                    PercentEncoding.decode(nameValue[0], plusAsSpace: true) ?? "",
                    nameValue.count > 1 ? PercentEncoding.decode(nameValue[1], plusAsSpace: true) ?? "" : ""
                )
            }
        var request = HTTPRequest(method: "GET", path: String(parts[0]), query: query)
        request.remoteAddress = address
        if signedIn { request.headers.add("Cookie", sessionCookie(application)) }
        return application.router.respond(to: request).response
    }

    static func post(_ server: TestServer, _ path: String, _ form: [(String, String)], headers: [(String, String)] = [])
        -> HTTPResponse
    {
        var request = HTTPRequest(method: "POST", path: path, body: Array(StripeTestClient.formEncode(form).utf8))
        request.remoteAddress = "127.0.0.1"
        request.headers.add("Content-Type", "application/x-www-form-urlencoded")
        request.headers.add("Cookie", sessionCookie(server.application))
        request.headers.add("Host", "127.0.0.1:\(server.port)")
        for (name, value) in headers { request.headers.add(name, value) }
        return server.application.router.respond(to: request).response
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// The cookie the console sets when the operator signs in with its token.
    static func sessionCookie(_ application: OnrampApplication) -> String {
        var login = HTTPRequest(method: "GET", path: "/console/login", query: [("token", application.consoleToken)])
        login.remoteAddress = "127.0.0.1"
        let setCookie = application.router.respond(to: login).response.headers["Set-Cookie"] ?? ""
        return String(setCookie.prefix { $0 != ";" })
    }

    static func csrf(_ server: TestServer) throws -> String {
        csrf(server.application)
    }

    /// The CSRF value the console's forms carry for `application`.
    static func csrf(_ application: OnrampApplication) -> String {
        let page = text(get(application, "/console"))
        return page.firstMatch(of: /name="csrf" value="([0-9a-f]{64})"/).map { String($0.1) } ?? ""
    }

    @Test func withoutTheTokenNothingIsRendered() throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        for path in [
            "/", "/console", "/console/projects/\(server.projectId)", "/console/transactions/\(purchase.transactionId)",
            "/console/events", "/console/events/\(purchase.eventId)", "/console/requests",
        ] {
            let response = Self.get(server, path, signedIn: false)
            let page = Self.text(response)
            #expect(response.status == 401, "\(path)")
            #expect(page.contains("Operator token"), "\(path)")
            #expect(!page.contains(server.projectId) && !page.contains(purchase.transactionId), "\(path)")
        }
        let wrong = Self.get(server, "/console/login?token=not-the-token", signedIn: false)
        #expect(wrong.status == 401)
        #expect(wrong.headers["Set-Cookie"] == nil)
        // From another address the console answers nothing either, token or not.
        let remote = Self.get(server, "/console", from: "203.0.113.9")
        #expect(remote.status == 403)
        #expect(!Self.text(remote).contains(server.projectId))
    }

    /// Each sign-in has a cookie of its own, kept server-side as a hash: signing out ends that sign-in (its
    /// cookie is refused afterwards, another sign-in's is not), and an instance started with a new token (on
    /// the same database) refuses every cookie made with the old one.
    @Test(arguments: DatabaseDriver.all)
    func signOutAndANewTokenEndTheSignIns(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let application = server.application
        let first = Self.sessionCookie(application)
        let second = Self.sessionCookie(application)
        #expect(first != second && !first.isEmpty, "a random cookie per sign-in")
        func status(_ cookie: String, on application: OnrampApplication) -> Int {
            var request = HTTPRequest(method: "GET", path: "/console")
            request.remoteAddress = "127.0.0.1"
            request.headers.add("Cookie", cookie)
            return application.router.respond(to: request).response.status
        }
        #expect(status(first, on: application) == 200 && status(second, on: application) == 200)
        let stored = try server.database.read {
            try $0.query("SELECT secret_hash FROM console_sessions", []).map { try $0.string("secret_hash") }
        }
        #expect(stored.count == 2 && !stored.contains { first.contains($0) }, "only hashes are kept")

        var logout = HTTPRequest(
            method: "POST", path: "/console/logout", body: Array("csrf=\(Self.csrf(application))".utf8))
        logout.remoteAddress = "127.0.0.1"
        logout.headers.add("Content-Type", "application/x-www-form-urlencoded")
        logout.headers.add("Cookie", first)
        #expect(application.router.respond(to: logout).response.status == 303)
        #expect(status(first, on: application) == 401, "the signed-out cookie is refused, even if kept")
        #expect(status(second, on: application) == 200, "another sign-in goes on")

        let rotated = try OnrampApplication(context: application.context, consoleToken: "a-new-operator-token")
        #expect(status(second, on: rotated) == 401, "a new token ends the old token's sign-ins")
        #expect(status(Self.sessionCookie(rotated), on: rotated) == 200)
    }

    @Test func signingInSetsAStrictCookieAndThePagesLinkTheObjects() throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        let login = Self.get(server, "/console/login?token=\(server.application.consoleToken)", signedIn: false)
        #expect(login.status == 303)
        #expect(login.headers["Location"] == "/console")
        let cookie = try #require(login.headers["Set-Cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(!cookie.contains(server.application.consoleToken), "the cookie is not the token")
        // The token works as a bearer credential; the cookie's value does not.
        var bearer = HTTPRequest(method: "GET", path: "/console")
        bearer.remoteAddress = "127.0.0.1"
        bearer.headers.add("Authorization", "Bearer \(server.application.consoleToken)")
        #expect(server.application.router.respond(to: bearer).response.status == 200)
        let cookieValue = String(cookie.prefix { $0 != ";" }.dropFirst("onramp_console=".count))
        var replayed = HTTPRequest(method: "GET", path: "/console")
        replayed.remoteAddress = "127.0.0.1"
        replayed.headers.add("Authorization", "Bearer \(cookieValue)")
        #expect(server.application.router.respond(to: replayed).response.status == 401)
        let projects = Self.text(Self.get(server, "/"))
        #expect(projects.contains("href=\"/console/projects/\(server.projectId)\""))
        let project = Self.text(Self.get(server, "/console/projects/\(server.projectId)"))
        #expect(project.contains("href=\"/console/transactions/\(purchase.transactionId)\""))
        #expect(project.contains(TestServer.appId) && project.contains(TestServer.redirectHost))
        #expect(project.contains("production"), "the App Attest key's environment")
        #expect(!project.contains(server.credentials.cdpApiKeySecret), "a key's secret is never shown again")
        let transaction = Self.text(Self.get(server, "/console/transactions/\(purchase.transactionId)"))
        #expect(transaction.contains("href=\"/console/events/\(purchase.eventId)\""))
        #expect(transaction.contains("onramp.transaction.success"))
        let event = Self.text(Self.get(server, "/console/events/\(purchase.eventId)"))
        #expect(event.contains(purchase.receiver.url))
        #expect(event.contains("Resend to this endpoint"))
        #expect(event.contains("Coinbase webhooks have no test mode") && !event.contains(">live<"), "no mode for CDP")
        #expect(event.contains("<td>200</td>"), "the attempt's response status")
        #expect(event.contains("<code>X-Hook0-Signature: t="), "the request headers as sent")
        #expect(event.contains("<code>X-Partner-Auth: (the endpoint&#39;s value, not kept)</code>"))
        #expect(!event.contains(Self.partnerCredential))
        #expect(purchase.receiver.deliveries.first?.headers["x-partner-auth"] == Self.partnerCredential)
        #expect(project.contains("App2App purchase sessions"), "the purchase session, by its challenge")
        // The request log finds a request by its Request-Id, and shows routes, never raw paths.
        let logged = Self.get(server, "/console/events")
        let id = try #require(logged.headers["Request-Id"])
        let requests = Self.text(Self.get(server, "/console/requests?request_id=\(id)"))
        #expect(requests.contains(id) && requests.contains("/console/events"))
        #expect(!Self.text(Self.get(server, "/console/requests")).contains(purchase.transactionId))
    }

    @Test func aClientSuppliedScriptShowsAsTextEverywhere() throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        _ = try ProjectProvisioner(database: server.database).createProject(
            name: Self.hostile, appIds: [], redirectHosts: [], keyType: .es256)
        let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
        for path in [
            "/console", "/console/projects/\(server.projectId)", "/console/transactions/\(purchase.transactionId)",
            "/console/events/\(purchase.eventId)",
        ] {
            let page = Self.text(Self.get(server, path))
            #expect(!page.contains("<script"), "\(path)")
        }
        // The event's body is shown as sent, where the JSON writer already wrote `<` as `\u003c`.
        #expect(Self.text(Self.get(server, "/console/events/\(purchase.eventId)")).contains("\\u003cscript"))
        #expect(Self.text(Self.get(server, "/console")).contains(escaped))
        #expect(Self.text(Self.get(server, "/console/transactions/\(purchase.transactionId)")).contains(escaped))
    }

    @Test func actionsFromAnotherSiteOrWithoutTheFormsValueAreRefused() throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        let csrf = try Self.csrf(server)
        let path = "/console/events/\(purchase.eventId)/resend"
        let form = [("csrf", csrf), ("subscription", purchase.subscriptionId)]
        let before = try server.count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'")
        #expect(Self.post(server, path, form, headers: [("Origin", "https://evil.example")]).status == 403)
        #expect(Self.post(server, path, form, headers: [("Sec-Fetch-Site", "cross-site")]).status == 403)
        #expect(Self.post(server, path, [("subscription", purchase.subscriptionId)]).status == 403)
        #expect(Self.post(server, path, [("csrf", String(repeating: "0", count: 64))] + form.suffix(1)).status == 403)
        #expect(try server.count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'") == before)
        // The same form from the console's own origin queues the delivery again.
        let accepted = Self.post(server, path, form, headers: [("Origin", "http://127.0.0.1:\(server.port)")])
        #expect(accepted.status == 303)
        #expect(accepted.headers["Location"] == "/console/events/\(purchase.eventId)?resent=1")
    }

    /// In headless Chromium at 1280 x 900, no console page hides a column: every table fits its frame (long ids
    /// and key ids wrap) and no page scrolls sideways. Screenshots in `artifacts/console-1280-*.png`.
    @Test func consoleTablesFitA1280PixelWindow() async throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        #expect(try OfframpTests().cashOut(server, ref: "wide-seller").status == 303)
        let sell = try #require(
            try server.database.read {
                try $0.query("SELECT transaction_id FROM offramp_transactions").first?.string("transaction_id")
            })
        let request = try #require(Self.get(server, "/console/events").headers["Request-Id"])
        let paths = [
            "/console", "/console/projects/\(server.projectId)",
            "/console/projects/\(server.projectId)/lists/purchase_sessions",
            "/console/transactions/\(purchase.transactionId)",
            "/console/events", "/console/events/\(purchase.eventId)", "/console/requests",
            "/console/requests/\(request)", "/console/sells/\(sell)", "/console/availability?country=US",
        ]
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let output = try await Python.run(
            "console_width.py",
            [
                "http://127.0.0.1:\(server.port)", server.application.consoleToken,
                artifacts.appendingPathComponent("console-1280").path,
            ] + paths)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        for path in paths { #expect(output.standardOutput.contains("\(path) fits\n"), "\(output.standardOutput)") }
    }

    /// In headless Chromium: sign in, open the project, its transaction, the event, resend it (the
    /// receiver gets the event a second time), advance the test clock and disable the endpoint from the
    /// project page, open the request log. Screenshots in `artifacts/console-*.png`.
    @Test func chromiumWalksFromAProjectToAWebhookAttemptAndResendsIt() async throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        let received = purchase.receiver.deliveries.filter { $0.eventId == purchase.eventId }.count
        #expect(received == 1)
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let output = try await Python.run(
            "console_browser.py",
            [
                "http://127.0.0.1:\(server.port)", server.application.consoleToken, server.projectId,
                purchase.transactionId, purchase.eventId, artifacts.appendingPathComponent("console").path,
            ])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("Queued for delivery again"), "\(output.standardOutput)")
        // The transaction's timeline: its requests, steps, events and delivery attempts, in order.
        let timeline = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("timeline: ") }
            .map { String($0.dropFirst("timeline: ".count)) }
        // The steps in order (a request and the step it made can share a millisecond, so requests are only
        // required to be there).
        let steps = [
            "purchase challenge issued", "purchase session created: the key's assertion verified",
            "hosted page opened", "transaction created: the user confirmed", "event onramp.transaction.created",
            "event onramp.transaction.success",
        ]
        let requests = [
            "request POST /platform/v2/onramp/mobile/challenges → 201",
            "request POST /platform/v2/onramp/mobile/sessions → 201", "request GET /onramp/app2app → 200",
            "request POST /onramp/app2app → 303",
        ]
        for line in steps + requests { #expect(timeline.contains(line), "\(line) in \(timeline)") }
        let positions = steps.compactMap { timeline.firstIndex(of: $0) }
        #expect(positions == positions.sorted(), "in order: \(timeline)")
        let success = try #require(timeline.firstIndex(of: "event onramp.transaction.success"))
        #expect(
            timeline[success...].contains("delivery to \(purchase.receiver.url)"), "its attempt: \(timeline)")
        #expect(output.standardOutput.contains("The test clock moved."), "\(output.standardOutput)")
        #expect(output.standardOutput.contains("disabled\nRequests"), "\(output.standardOutput)")
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE enabled = 0") == 1,
            "the endpoint was disabled from the page")
        #expect(try server.count("SELECT COUNT(*) AS n FROM test_clocks WHERE offset_ms = 360000") == 1)
        #expect(
            await purchase.receiver.wait { $0.filter { $0.eventId == purchase.eventId }.count == 2 },
            "the receiver got the event again")
    }

    @Test func embeddedCustomersAndSessionsAreLinkedAndShowNoCardData() throws {
        let server = try EmbeddedTestServer(settlementDelay: 0)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        _ = try server.checkout(user, id)
        _ = try server.waitForSession(id, status: "fulfillment_complete")
        let application = server.application
        let project = Self.text(Self.get(application, "/console/projects/\(server.credentials.projectId)"))
        #expect(project.contains("href=\"/console/customers/\(user.customerId)\""))
        #expect(project.contains("href=\"/console/onramp_sessions/\(id)\""))
        let customer = Self.text(Self.get(application, "/console/customers/\(user.customerId)"))
        #expect(customer.contains(user.email.lowercased()), "the Link consumer (emails are kept lower-case)")
        #expect(customer.contains(wallet) && customer.contains(token))
        #expect(customer.contains("verified"), "the KYC tiers")
        #expect(!customer.contains("4242424242424242") && !customer.contains("424242"), "no card number")
        let session = Self.text(Self.get(application, "/console/onramp_sessions/\(id)"))
        #expect(session.contains("href=\"/console/customers/\(user.customerId)\""))
        #expect(
            session.contains("<td>fulfillment_processing</td>") && session.contains("<td>fulfillment_complete</td>"))
        #expect(Self.get(application, "/console/onramp_sessions/\(id)", signedIn: false).status == 401)
    }

    /// A Headless order has a page of its own, linked from its project, without the buyer's phone or email, with
    /// its timeline: the API call that made it, the payment page's requests, its events.
    @Test func aHeadlessOrderHasItsOwnPage() throws {
        let server = try TestServer()
        let created = try HeadlessOnrampTests().post(
            server, "/platform/v2/onramp/orders", HeadlessOnrampTests.orderBody())
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue, "\(created.body)")
        // The guest opens the payment link and declines: those requests join the order's timeline.
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        _ = try HeadlessOnrampTests.pay(server, link: link, action: "decline")
        let page = Self.text(Self.get(server, "/console/orders/\(orderId)"))
        for line in [
            "order created", "request POST /platform/v2/onramp/orders → 201",
            "request GET /v2/api-onramp/apple-pay → 200", "request POST /v2/api-onramp/apple-pay → 200",
            "event onramp.transaction.failed",
        ] {
            #expect(page.contains(line), "the timeline has \(line)")
        }
        #expect(page.contains("ONRAMP_ORDER_STATUS_FAILED") && page.contains("GUEST_CHECKOUT_APPLE_PAY"))
        #expect(page.contains("href=\"/console/projects/\(server.projectId)\""))
        #expect(!page.contains(HeadlessOnrampTests.phone) && !page.contains("ada@example.com"), "no phone, no email")
        #expect(page.contains("onramp.transaction.created"), "its state history")
        let project = Self.text(Self.get(server, "/console/projects/\(server.projectId)"))
        #expect(project.contains("href=\"/console/orders/\(orderId)\""))
        #expect(Self.get(server, "/console/orders/nope").status == 404)
        #expect(Self.get(server, "/console/orders/\(orderId)", signedIn: false).status == 401)
    }

    /// An object page for an id that names nothing answers 404 and says which kind of object is missing.
    @Test func anUnknownObjectIsNotFoundByItsKind() throws {
        let server = try TestServer()
        let pages = [
            ("transactions", "No transaction nope."), ("onramp_sessions", "No onramp session nope."),
            ("orders", "No order nope."), ("sells", "No sell nope."),
        ]
        for (path, message) in pages {
            let response = Self.get(server, "/console/\(path)/nope")
            #expect(response.status == 404, "\(path)")
            #expect(Self.text(response).contains(message), "\(path): \(Self.text(response))")
        }
    }

    /// The redirect's `transactionId` is not the transaction's id (by design, as Coinbase's is not): its page
    /// says so and names the purchase's transaction, instead of a bare "not found".
    @Test func aRedirectsTransactionIdLeadsToItsTransaction() throws {
        let purchase = try Self.purchase()
        let redirectId = try #require(
            try purchase.server.database.read {
                try $0.query("SELECT redirect_transaction_id FROM purchase_sessions").first?.optionalString(
                    "redirect_transaction_id")
            })
        #expect(redirectId != purchase.transactionId)
        let page = Self.get(purchase.server, "/console/transactions/\(redirectId)")
        #expect(page.status == 404)
        #expect(Self.text(page).contains("transactionId of a purchase&#39;s redirect"), "\(Self.text(page))")
        #expect(Self.text(page).contains("/console/transactions/\(purchase.transactionId)"))
        #expect(!Self.text(Self.get(purchase.server, "/console/transactions/nope")).contains("redirect"))
    }

    /// A hosted onramp session has a page of its own, linked from its project, without its token.
    @Test func aHostedSessionHasItsOwnPage() throws {
        let server = try TestServer()
        let token = try HostedOnrampTests().token(server)
        let id = try #require(
            try server.database.read { try $0.query("SELECT id FROM hosted_onramp_sessions").first?.string("id") })
        let project = Self.text(Self.get(server, "/console/projects/\(server.projectId)"))
        #expect(project.contains("href=\"/console/hosted_sessions/\(id)\""))
        let page = Self.text(Self.get(server, "/console/hosted_sessions/\(id)"))
        #expect(page.contains(HostedOnrampTests.evmAddress) && page.contains("USDC"), "destinations and assets")
        #expect(!page.contains(token), "never the token")
        #expect(Self.get(server, "/console/hosted_sessions/nope").status == 404)
    }

    /// A sell has a page of its own, listed on its project, linked both ways with the sell page's hosted session,
    /// with its timeline: the token that made the link, the sell page's requests, the sell and its events.
    @Test func aSellHasItsOwnPageAndTimeline() throws {
        let server = try TestServer()
        #expect(try OfframpTests().cashOut(server, ref: "console-seller").status == 303)
        let (sellId, hostedId) = try server.database.read { connection in
            (
                try connection.query("SELECT transaction_id FROM offramp_transactions").first?.string("transaction_id"),
                try connection.query("SELECT id FROM hosted_onramp_sessions").first?.string("id")
            )
        }
        let sell = try #require(sellId)
        let hosted = try #require(hostedId)
        let page = Self.text(Self.get(server, "/console/sells/\(sell)"))
        for line in [
            "hosted session created (token)", "hosted sell page opened", "sell created: the user pressed Cash out",
            "request POST /onramp/v1/token → 200", "request GET /v3/sell/input → 200",
            "request POST /v3/sell/input → 303", "event offramp.transaction.created",
        ] {
            #expect(page.contains(line), "the timeline has \(line)")
        }
        #expect(page.contains("TRANSACTION_STATUS_STARTED") && page.contains("10 USDC on base"))
        #expect(page.contains("href=\"/console/hosted_sessions/\(hosted)\""), "made by its sell page")
        #expect(page.contains("href=\"/console/projects/\(server.projectId)\""))
        let session = Self.text(Self.get(server, "/console/hosted_sessions/\(hosted)"))
        #expect(session.contains("Hosted sell session \(hosted)"))
        #expect(session.contains("href=\"/console/sells/\(sell)\""), "its sell, not a transaction")
        #expect(!session.contains("/console/transactions/"))
        #expect(session.contains("request POST /v3/sell/input → 303"), "its own timeline")
        let project = Self.text(Self.get(server, "/console/projects/\(server.projectId)"))
        #expect(project.contains("href=\"/console/sells/\(sell)\""))
        let list = Self.text(Self.get(server, "/console/projects/\(server.projectId)/lists/sells"))
        #expect(list.contains("href=\"/console/sells/\(sell)\"") && list.contains("console-seller"))
        #expect(Self.get(server, "/console/sells/\(sell)", signedIn: false).status == 401)
    }

    /// A waiting sell settles or fails from its console page, with its webhooks' events, at once.
    @Test func aWaitingSellSettlesOrFailsNowFromTheConsole() throws {
        let server = try TestServer(settlementDelay: 3600)
        var sells: [String] = []
        for ref in ["console-seller-1", "console-seller-2"] {
            #expect(try OfframpTests().cashOut(server, ref: ref).status == 303)
            sells.append(
                try #require(
                    try server.database.read {
                        try $0.query(
                            "SELECT transaction_id FROM offramp_transactions WHERE partner_user_ref = ?", [.text(ref)]
                        ).first?.string("transaction_id")
                    }))
        }
        func status(_ id: String) throws -> String? {
            try server.database.read {
                try $0.query("SELECT status FROM offramp_transactions WHERE transaction_id = ?", [.text(id)]).first?
                    .string("status")
            }
        }
        #expect(Self.text(Self.get(server, "/console/sells/\(sells[0])")).contains("Settle now"))
        let csrf = try Self.csrf(server)
        #expect(Self.post(server, "/console/sells/\(sells[0])/settle", []).status == 403, "no CSRF value")
        #expect(Self.post(server, "/console/sells/\(sells[0])/settle", [("csrf", csrf)]).status == 303)
        #expect(Self.post(server, "/console/sells/\(sells[1])/fail", [("csrf", csrf)]).status == 303)
        #expect(try sells.map(status) == ["TRANSACTION_STATUS_SUCCESS", "TRANSACTION_STATUS_FAILED"])
        #expect(Self.post(server, "/console/sells/\(sells[0])/fail", [("csrf", csrf)]).status == 409)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'offramp.transaction.success'") == 1)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'offramp.transaction.failed'") == 1)
        let settled = Self.text(Self.get(server, "/console/sells/\(sells[0])?finished=settled"))
        #expect(settled.contains("Settled.") && !settled.contains("Settle now"))
    }

    /// A transaction made on the hosted buy page names its hosted session, whose page links back to it.
    @Test func aHostedPurchaseLinksItsSessionAndTransaction() throws {
        let server = try TestServer()
        let token = try HostedOnrampTests().token(server)
        let browser = HostedOnrampBrowser(port: server.port)
        let preview = try browser.open(
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(token)&defaultAsset=USDC"
                + "&defaultNetwork=base&presetFiatAmount=25.00&fiatCurrency=USD&partnerUserId=hosted-user")
        #expect(try browser.submit(preview, action: "confirm").status == 200)
        let (transactionId, hostedId) = try server.database.read { connection in
            (
                try connection.query("SELECT transaction_id FROM onramp_transactions").first?.string("transaction_id"),
                try connection.query("SELECT id FROM hosted_onramp_sessions").first?.string("id")
            )
        }
        let transaction = try #require(transactionId)
        let hosted = try #require(hostedId)
        let page = Self.text(Self.get(server, "/console/transactions/\(transaction)"))
        #expect(page.contains("hosted session <a href=\"/console/hosted_sessions/\(hosted)\""), "made by")
        for line in ["hosted buy page opened", "request POST /buy/select-asset → 200", "transaction created"] {
            #expect(page.contains(line), "the timeline has \(line)")
        }
        let session = Self.text(Self.get(server, "/console/hosted_sessions/\(hosted)"))
        #expect(session.contains("href=\"/console/transactions/\(transaction)\""))
        #expect(session.contains("event onramp.transaction.created"), "its transaction's events")
    }

    /// The availability page answers, from the catalogue the APIs use, what is served in a country and
    /// subdivision: the same assets Buy Options lists, the payment methods and their limits, and whether the
    /// Embedded onramp serves the region; an unknown country or subdivision is a 400 naming the choices.
    @Test func theAvailabilityPageLooksUpACountryAndSubdivision() throws {
        let server = try TestServer()
        let form = Self.text(Self.get(server, "/console/availability"))
        #expect(form.contains("<option value=\"US\">") && form.contains("name=\"subdivision\""))
        let newYork = Self.text(Self.get(server, "/console/availability?country=US&subdivision=NY"))
        #expect(newYork.contains("not served: Purchases from New York are not supported."), "\(newYork)")
        let california = Self.text(Self.get(server, "/console/availability?country=us&subdivision=US-CA"))
        #expect(california.contains("served: pays in usd, cards and bank accounts"))
        #expect(Self.text(Self.get(server, "/console/availability?country=DE")).contains("pays in eur, cards only"))
        let path = "/onramp/v1/buy/options"
        let options = try server.request(
            "GET", path + "?country=US", headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
        let symbols = try #require(options.body["purchase_currencies"]?.arrayValue).compactMap {
            $0["symbol"]?.stringValue
        }
        #expect(!symbols.isEmpty)
        for symbol in symbols {
            #expect(california.contains("<td>\(symbol)</td>"), "\(symbol) as Buy Options lists it")
        }
        let unknown = Self.get(server, "/console/availability?country=ZZ")
        #expect(
            unknown.status == 400 && Self.text(unknown).contains("the catalogue serves US"), "\(Self.text(unknown))")
        let nowhere = Self.get(server, "/console/availability?country=US&subdivision=XX")
        #expect(nowhere.status == 400 && Self.text(nowhere).contains("has no subdivision XX"))
        #expect(Self.get(server, "/console/availability?country=US", signedIn: false).status == 401)
    }

    /// A project's lists show their newest 20 on its page and every row on a page of their own, 50 a
    /// page with an "Older" link: 55 hosted sessions (several made in the same millisecond) are each listed
    /// exactly once across the pages.
    @Test func aProjectsListsPage() throws {
        let server = try TestServer()
        let hosted = HostedOnrampTests()
        for _ in 0..<55 { _ = try hosted.token(server) }
        let ids = Set(
            try server.database.read { try $0.query("SELECT id FROM hosted_onramp_sessions") }.map {
                try $0.string("id")
            })
        #expect(ids.count == 55)
        func listed(_ page: String) -> [String] {
            ids.filter { page.contains("href=\"/console/hosted_sessions/\($0)\"") }.sorted()
        }
        let project = Self.text(Self.get(server, "/console/projects/\(server.projectId)"))
        #expect(listed(project).count == ConsoleProjectList.previewSize)
        let all = "/console/projects/\(server.projectId)/lists/hosted_sessions"
        #expect(project.contains("href=\"\(all)\""))
        let first = Self.text(Self.get(server, all))
        #expect(listed(first).count == 50)
        let next = try #require(first.range(of: #"href="([^"]+\?before=[^"]+)""#, options: .regularExpression))
        let link = String(first[next]).dropFirst(6).dropLast().replacingOccurrences(of: "&amp;", with: "&")
        let second = Self.text(Self.get(server, String(link)))
        #expect(listed(second).count == 5 && !second.contains(">Older<"), "the last page")
        #expect(Set(listed(first) + listed(second)) == ids, "every row once")
        #expect(Self.get(server, "\(all)?before=nonsense").status == 400)
        #expect(Self.get(server, "/console/projects/\(server.projectId)/lists/nope").status == 404)
        #expect(Self.get(server, "/console/projects/nope/lists/hosted_sessions").status == 404)
        for list in ConsoleProjectList.all {
            #expect(
                Self.get(server, "/console/projects/\(server.projectId)/lists/\(list.slug)").status == 200,
                "\(list.slug)")
        }
    }

    /// The project list pages by 50, newest first: 56 projects are each listed once over two pages.
    @Test func theProjectListPages() throws {
        let server = try TestServer()
        let provisioner = ProjectProvisioner(database: server.database)
        for index in 0..<55 {
            _ = try provisioner.createProject(
                name: "Paged \(index)", appIds: [], redirectHosts: [], keyType: .es256)
        }
        let ids = try server.database.read { try $0.query("SELECT id FROM projects") }.map { try $0.string("id") }
        #expect(ids.count == 56)
        func listed(_ page: String) -> Set<String> {
            Set(ids.filter { page.contains("href=\"/console/projects/\($0)\"") })
        }
        let first = Self.text(Self.get(server, "/console"))
        #expect(listed(first).count == 50 && first.contains("Older projects"))
        let next = try #require(first.range(of: #"href="(/console\?before=[^"]+)""#, options: .regularExpression))
        let second = Self.text(Self.get(server, String(String(first[next]).dropFirst(6).dropLast())))
        #expect(listed(second).count == 6 && !second.contains("Older projects"))
        #expect(listed(first).union(listed(second)) == Set(ids))
    }

    /// The event list pages by 50, newest first, with an "Older events" link that keeps the type filter.
    @Test func theEventListPages() throws {
        let server = try TestServer()
        try server.database.transaction { connection in
            for index in 0..<60 {
                try Outbox.append(
                    connection, id: "evt_page_\(String(format: "%02d", index))", projectId: server.projectId,
                    family: .cdp, type: index % 2 == 0 ? "test.even" : "test.odd", payload: [:], livemode: false,
                    createdAtMilliseconds: 1_000_000 + Int64(index))
            }
        }
        let first = Self.text(Self.get(server, "/console/events"))
        #expect(first.contains("evt_page_59") && first.contains("evt_page_10") && !first.contains("evt_page_09"))
        let next = try #require(
            first.range(of: #"href="(/console/events\?before=[^"]+)""#, options: .regularExpression))
        let link = String(first[next]).dropFirst(6).dropLast().replacingOccurrences(of: "&amp;", with: "&")
        let second = Self.text(Self.get(server, String(link)))
        #expect(second.contains("evt_page_09") && second.contains("evt_page_00") && !second.contains("evt_page_10"))
        #expect(!second.contains("Older events"), "the last page")
        let odd = Self.text(Self.get(server, "/console/events?type=test.odd"))
        #expect(odd.contains("evt_page_59") && !odd.contains("evt_page_58") && !odd.contains("Older events"))
        #expect(Self.get(server, "/console/events?before=nonsense").status == 400)
    }

    @Test(arguments: DatabaseDriver.all)
    func aPendingTransactionSettlesOrFailsNowFromTheConsole(driver: DatabaseDriver) throws {
        let server = try TestServer(settlementDelay: 3600, driver: driver)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase())
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let id = try #require(
            try server.database.read {
                try $0.query("SELECT transaction_id FROM onramp_transactions", []).first?.string("transaction_id")
            })
        let page = Self.text(Self.get(server, "/console/transactions/\(id)"))
        #expect(page.contains("Settle now"))
        let settled = Self.post(server, "/console/transactions/\(id)/settle", [("csrf", try Self.csrf(server))])
        #expect(settled.status == 303, "\(Self.text(settled))")
        let status = try server.database.read {
            try $0.query("SELECT status FROM onramp_transactions WHERE transaction_id = ?", [.text(id)]).first?
                .string("status")
        }
        #expect(status == "ONRAMP_TRANSACTION_STATUS_SUCCESS")
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.success'") == 1)
        let after = Self.text(Self.get(server, "/console/transactions/\(id)?finished=settled"))
        #expect(after.contains("Settled.") && !after.contains("Settle now"))
        // Settled once: a second press finds nothing pending.
        #expect(
            Self.post(server, "/console/transactions/\(id)/settle", [("csrf", try Self.csrf(server))]).status == 409)
        #expect(Self.post(server, "/console/transactions/\(id)/fail", [("csrf", try Self.csrf(server))]).status == 409)

        // Another purchase, failed on purpose: FAILED with the buy-failed reason and its webhook event.
        let second = try device.purchaseChallenge(device.purchase([("partnerUserRef", "console-fail")]))
        let secondSession = try device.createSession(challenge: second.body["challenge"]?.stringValue ?? "")
        let secondURL = try #require(secondSession.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(secondURL, action: "confirm").status == 303)
        let failedId = try #require(
            try server.database.read {
                try $0.query(
                    "SELECT transaction_id FROM onramp_transactions WHERE status <> 'ONRAMP_TRANSACTION_STATUS_SUCCESS'",
                    []
                ).first?.string("transaction_id")
            })
        #expect(Self.post(server, "/console/transactions/\(failedId)/fail", []).status == 403, "no CSRF value")
        let failed = Self.post(server, "/console/transactions/\(failedId)/fail", [("csrf", try Self.csrf(server))])
        #expect(failed.status == 303, "\(Self.text(failed))")
        let reason = try server.database.read {
            try $0.query(
                "SELECT status, failure_reason FROM onramp_transactions WHERE transaction_id = ?", [.text(failedId)]
            ).first.map { "\(try $0.string("status")) \($0.optionalString("failure_reason") ?? "")" }
        }
        #expect(reason == "ONRAMP_TRANSACTION_STATUS_FAILED FAILURE_REASON_BUY_FAILED")
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.failed'") == 1)
        // cdp-sdk 1.51.0's `OnrampTransactionPayload` parses both outcomes, `errorCode` beside `failureReason`.
        let payloads = try server.database.read {
            try $0.query(
                "SELECT payload FROM outbox_events WHERE type IN ('onramp.transaction.failed', 'onramp.transaction.success') ORDER BY type",
                []
            ).map { try JSONParser().parse(try $0.string("payload")) }
        }
        let parsed = try CDPPayloadModels.parse(payloads.map { ("OnrampTransactionPayload", $0) })
        #expect(parsed.count == 2 && parsed.allSatisfy { $0.error == nil }, "\(parsed)")
        #expect(parsed.first?.parsed?["failureReason"] == "FAILURE_REASON_BUY_FAILED")
        #expect(parsed.first?.parsed?["errorCode"] == "ERROR_CODE_UNSPECIFIED")
        #expect(parsed.last?.parsed?["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS")
        #expect(
            Self.text(Self.get(server, "/console/transactions/\(failedId)?finished=failed")).contains(
                "Failed on purpose."))
    }

    /// A paid Headless order and a test-mode Embedded session being fulfilled can be settled or failed now
    /// from their pages, through the same steps and events as their workers; a second press finds nothing.
    @Test func headlessOrdersAndEmbeddedSessionsSettleOrFailNow() throws {
        let server = try TestServer(settlementDelay: 3600)
        let headless = HeadlessOnrampTests()
        var orderIds: [String] = []
        for ref in ["console-order-1", "console-order-2"] {
            let created = try headless.post(
                server, "/platform/v2/onramp/orders", HeadlessOnrampTests.orderBody([("partnerUserRef", .string(ref))]))
            orderIds.append(try #require(created.body["order"]?["orderId"]?.stringValue))
            let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
            #expect(try HeadlessOnrampTests.pay(server, link: link, action: "approve").status == 200)
        }
        func orderStatus(_ id: String) throws -> String? {
            try server.database.read {
                try $0.query("SELECT status FROM onramp_orders WHERE order_id = ?", [.text(id)]).first?.string("status")
            }
        }
        #expect(try orderIds.map(orderStatus) == ["ONRAMP_ORDER_STATUS_PROCESSING", "ONRAMP_ORDER_STATUS_PROCESSING"])
        #expect(Self.text(Self.get(server, "/console/orders/\(orderIds[0])")).contains("Settle now"))
        let csrf = try Self.csrf(server)
        #expect(Self.post(server, "/console/orders/\(orderIds[0])/settle", []).status == 403, "no CSRF value")
        #expect(Self.post(server, "/console/orders/\(orderIds[0])/settle", [("csrf", csrf)]).status == 303)
        #expect(Self.post(server, "/console/orders/\(orderIds[1])/fail", [("csrf", csrf)]).status == 303)
        #expect(try orderIds.map(orderStatus) == ["ONRAMP_ORDER_STATUS_COMPLETED", "ONRAMP_ORDER_STATUS_FAILED"])
        #expect(Self.post(server, "/console/orders/\(orderIds[0])/fail", [("csrf", csrf)]).status == 409)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.success'") == 1)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.failed'") == 1)
        let settledPage = Self.text(Self.get(server, "/console/orders/\(orderIds[0])?finished=settled"))
        #expect(settledPage.contains("Settled.") && !settledPage.contains("Settle now"))

        let embedded = try EmbeddedTestServer(settlementDelay: 3600)
        let user = try embedded.signUpAndAuthorize()
        try embedded.collectKYC(user)
        let wallet = try embedded.registerWallet(user)
        let token = try embedded.paymentToken(user)
        var sessionIds: [String] = []
        for _ in 0..<2 {
            let id = try embedded.createSession(user, token: token, wallet: wallet).string("id")
            #expect(try embedded.checkout(user, id).string("status") == "fulfillment_processing")
            sessionIds.append(id)
        }
        let application = embedded.application
        func post(_ path: String) -> Int {
            var request = HTTPRequest(
                method: "POST", path: path, body: Array("csrf=\(Self.csrf(application))".utf8))
            request.remoteAddress = "127.0.0.1"
            request.headers.add("Content-Type", "application/x-www-form-urlencoded")
            request.headers.add("Cookie", Self.sessionCookie(application))
            return application.router.respond(to: request).response.status
        }
        #expect(Self.text(Self.get(application, "/console/onramp_sessions/\(sessionIds[0])")).contains("Fail now"))
        #expect(post("/console/onramp_sessions/\(sessionIds[0])/settle") == 303)
        #expect(post("/console/onramp_sessions/\(sessionIds[1])/fail") == 303)
        #expect(post("/console/onramp_sessions/\(sessionIds[1])/fail") == 409)
        let outcomes = try sessionIds.map { id in
            try embedded.database.read {
                try $0.query("SELECT status, last_error FROM crypto_onramp_sessions WHERE id = ?", [.text(id)]).first
                    .map { "\(try $0.string("status")) \($0.optionalString("last_error") ?? "")" }
            }
        }
        #expect(outcomes[0] == "fulfillment_complete ")
        #expect(outcomes[1]?.hasSuffix("transaction_failed") == true, "\(outcomes)")
    }

    /// Disabling an endpoint holds its deliveries; failing its next one records an attempt that was
    /// never sent; enabling it and resending delivers.
    @Test func endpointsAreDisabledEnabledAndFailOnRequest() throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        let csrf = try Self.csrf(server)
        let endpoint = "/console/endpoints/\(purchase.subscriptionId)"
        #expect(Self.post(server, endpoint, [("csrf", csrf), ("action", "disable")]).status == 303)
        #expect(Self.text(Self.get(server, "/console/projects/\(server.projectId)")).contains("disabled"))
        #expect(Self.post(server, endpoint, [("csrf", csrf), ("action", "fail"), ("count", "1")]).status == 303)
        let resend = "/console/events/\(purchase.eventId)/resend"
        #expect(Self.post(server, resend, [("csrf", csrf), ("subscription", purchase.subscriptionId)]).status == 303)
        Thread.sleep(forTimeInterval: 0.3)
        let sent = { purchase.receiver.deliveries.filter { $0.eventId == purchase.eventId }.count }
        #expect(sent() == 1, "a disabled endpoint gets nothing")
        #expect(Self.post(server, endpoint, [("csrf", csrf), ("action", "enable")]).status == 303)
        let failed = "SELECT COUNT(*) AS n FROM webhook_attempts WHERE error LIKE 'failed on purpose%'"
        for _ in 0..<1500 where try server.count(failed) == 0 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try server.count(failed) == 1)
        #expect(sent() == 1, "the failed attempt was not sent")
        #expect(Self.post(server, resend, [("csrf", csrf), ("subscription", purchase.subscriptionId)]).status == 303)
        #expect(purchase.receiver.wait { $0.filter { $0.eventId == purchase.eventId }.count == 2 })
        #expect(Self.post(server, endpoint, [("csrf", csrf), ("action", "explode")]).status == 400)
        #expect(Self.post(server, endpoint, [("action", "disable")]).status == 403)
    }

    /// The request log names the project a request acted for, also when it was refused after
    /// authentication, and links it.
    @Test func theRequestLogNamesTheCallersProjectEvenForARefusal() throws {
        let purchase = try Self.purchase()
        let server = purchase.server
        let path = "/platform/v2/data/webhooks/subscriptions"
        let refused = try server.request(
            "POST", path, json: ["target": ["url": "not a url"]],
            headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        #expect(refused.status == 400, "\(refused.body)")
        let requestId = try #require(refused.headers["request-id"])
        let page = Self.text(Self.get(server, "/console/requests?request_id=\(requestId)"))
        #expect(page.contains("<td>400</td>"))
        #expect(page.contains("href=\"/console/projects/\(server.projectId)\""), "the caller's project")
        let all = Self.text(Self.get(server, "/console/requests"))
        #expect(all.contains("/platform/v2/onramp/mobile/sessions"))
    }

    /// A purchase session refused after its challenge was read (a wrong assertion) is logged under the
    /// challenge's project: the session call carries no credential, so the challenge is what names it.
    @Test func aRefusedPurchaseSessionIsLoggedUnderItsChallengesProject() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let first = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let second = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let refused = try server.request(
            "POST", "/platform/v2/onramp/mobile/sessions",
            json: [
                "challenge": .string(first),
                "ios": ["keyId": .string(device.key.keyId), "assertion": .string(try device.assertion(for: second))],
            ])
        #expect(refused.status == 400, "\(refused.body)")
        let requestId = try #require(refused.headers["request-id"])
        let page = Self.text(Self.get(server, "/console/requests?request_id=\(requestId)"))
        #expect(page.contains("<td>400</td>"))
        #expect(page.contains("href=\"/console/projects/\(server.projectId)\""), "the challenge's project")
    }

    /// A Stripe-shaped refusal's `request_log_url` is this sandbox's page of the request, which shows the
    /// refusal's code and message and the answer's body.
    @Test(arguments: DatabaseDriver.all)
    func aStripeRefusalsRequestLogURLOpensItsRequestHere(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: driver)
        let refused = try server.backend.get("/v1/webhook_endpoints/we_doesnotexist00000000000")
        #expect(refused.status == 404, "\(refused)")
        let url = try #require(refused["error.request_log_url"] as? String)
        let requestId = try #require(refused.headers["request-id"])
        let base = server.application.context.publicBaseURL
        #expect(url == "\(base)/console/requests/\(requestId)")
        let code = try #require(refused["error.code"] as? String)
        let message = try #require(refused["error.message"] as? String)
        let page = Self.text(Self.get(server.application, String(url.dropFirst(base.count))))
        #expect(page.contains("Request \(requestId)") && page.contains("GET /v1/webhook_endpoints/{id}"))
        #expect(page.contains("<code>\(code)</code>"), "its code is on the page")
        #expect(page.contains(HTML.escape(message)), "its message is on the page")
        #expect(page.contains(HTML.escape("\"request_log_url\":")), "the answer's body")
        #expect(Self.get(server.application, "/console/requests/req_nope").status == 404)
        #expect(Self.get(server.application, "/console/requests/\(requestId)", signedIn: false).status == 401)
    }

    /// A request's page shows both bodies with card details and secrets redacted: a card payment method's
    /// number and CVC, a webhook endpoint's signing secret.
    @Test func aRequestsPageShowsItsBodiesWithSecretsRedacted() throws {
        let server = try EmbeddedTestServer(settlementDelay: 0)
        let card = try server.backend.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", "4000056655665556"), ("card[cvc]", "314"), ("card[exp_month]", "12"),
                ("card[exp_year]", "2031"),
            ])
        #expect(card.status == 200, "\(card)")
        let cardPage = Self.text(
            Self.get(server.application, "/console/requests/\(try #require(card.headers["request-id"]))"))
        #expect(cardPage.contains("card%5Bnumber%5D=[redacted]") || cardPage.contains("card[number]=[redacted]"))
        #expect(!cardPage.contains("4000056655665556") && !cardPage.contains("314&"), "no card number, no CVC")
        #expect(cardPage.contains("&quot;last4&quot;:&quot;5556&quot;"), "the answer's last four digits")
        let receiver = try WebhookReceiver()
        let endpoint = try server.backend.post(
            "/v1/webhook_endpoints", [("url", receiver.url), ("enabled_events[]", "*")])
        let secret = try #require(endpoint["secret"] as? String)
        let endpointPage = Self.text(
            Self.get(server.application, "/console/requests/\(try #require(endpoint.headers["request-id"]))"))
        #expect(endpointPage.contains("&quot;secret&quot;:&quot;[redacted]&quot;") && !endpointPage.contains(secret))
        #expect(endpointPage.contains(receiver.url), "the rest of the body")
    }

    /// In headless Chromium: from the project to its crypto customer to the customer's onramp session,
    /// whose transitions list the statuses it went through and whose timeline has the requests that made it,
    /// its events and their delivery attempts. Screenshots in `artifacts/console-embedded-*.png`.
    @Test func chromiumWalksFromAProjectToACustomerAndItsOnrampSession() async throws {
        let server = try EmbeddedTestServer(settlementDelay: 0)
        let receiver = try WebhookReceiver()
        let endpoint = try server.backend.post(
            "/v1/webhook_endpoints", [("url", receiver.url), ("enabled_events[]", "crypto.onramp_session.updated")])
        #expect(endpoint.status == 200, "\(endpoint)")
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let id = try server.createSession(user, token: token, wallet: wallet).string("id")
        _ = try server.checkout(user, id)
        _ = try server.waitForSession(id, status: "fulfillment_complete")
        #expect(await receiver.wait { $0.count >= 2 }, "the session's events were delivered")
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let output = try await Python.run(
            "console_embedded_browser.py",
            [
                server.baseURL, server.application.consoleToken, server.credentials.projectId, user.customerId, id,
                artifacts.appendingPathComponent("console-embedded").path,
            ])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("Crypto customer \(user.customerId)"), "\(output.standardOutput)")
        #expect(
            output.standardOutput.contains("fulfillment_processing fulfillment_complete"), "\(output.standardOutput)")
        let timeline = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("timeline: ") }
            .map { String($0.dropFirst("timeline: ".count)) }
        for line in [
            "request POST /v1/crypto/onramp_sessions → 200",
            "request POST /v1/crypto/onramp_sessions/{id}/checkout → 200",
            "event crypto.onramp_session.updated", "delivery to \(receiver.url)",
        ] {
            #expect(timeline.contains(line), "\(line) in \(timeline)")
        }
    }
}

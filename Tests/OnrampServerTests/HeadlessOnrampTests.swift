import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServices

/// The Headless Onramp on a real port: OTP verifications, guest limits, guest checkout orders paid on the
/// payment-button page (approve, decline, cancel), settlement, and the order-form webhooks, as the
/// cdp-sdk `OnrampApi` and Coinbase's demo backend (`server/src/app.ts` `/onramp/order`, `/onramp/limits`)
/// call them.
@Suite(.blocking) struct HeadlessOnrampTests {
    static let phone = "+14155550123"
    static let address = "0x52908400098527886E0F7030069857D2E4169EE7"

    func post(_ server: TestServer, _ path: String, _ body: JSONValue) throws -> (status: Int, body: JSONValue) {
        let response = try server.request(
            "POST", path, json: body, headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        return (response.status, response.body)
    }

    func get(_ server: TestServer, _ path: String) throws -> (status: Int, body: JSONValue) {
        let response = try server.request(
            "GET", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
        return (response.status, response.body)
    }

    /// The demo app's order (`hooks/useOnramp.ts`): verified phone and email, terms accepted now.
    static func orderBody(
        _ overrides: [(String, JSONValue)] = [], removing: Set<String> = [], verifiedAt: Date = Date()
    ) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        var fields: [(String, JSONValue)] = [
            ("purchaseCurrency", "USDC"), ("destinationNetwork", "base"), ("destinationAddress", .string(address)),
            ("paymentAmount", "25.00"), ("paymentCurrency", "USD"), ("paymentMethod", "GUEST_CHECKOUT_APPLE_PAY"),
            ("partnerUserRef", "guest-1"), ("phoneNumber", .string(phone)), ("email", "ada@example.com"),
            ("phoneNumberVerifiedAt", .string(formatter.string(from: verifiedAt.addingTimeInterval(-3600)))),
            ("agreementAcceptedAt", .string(formatter.string(from: verifiedAt))), ("isQuote", false),
        ]
        fields.removeAll { removing.contains($0.0) || overrides.map(\.0).contains($0.0) }
        return .object(fields + overrides)
    }

    /// Opens the payment link and answers its sheet with a form post (no JavaScript), as a browser would.
    static func pay(_ server: TestServer, link: String, action: String, payable: Bool = true) throws
        -> RawHTTPClient.Response
    {
        let url = try #require(URL(string: link))
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let token = try #require(components.queryItems?.first { $0.name == "sessionToken" }?.value)
        let page = try RawHTTPClient(port: server.port).request("GET", url.path + "?" + (components.query ?? ""))
        #expect(page.status == 200)
        #expect(page.text.contains("id=\"api-onramp-apple-pay-button\"") == payable)
        let opened = try RawHTTPClient(port: server.port).request(
            "POST", url.path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("sessionToken=\(token)&action=open".utf8))
        #expect(opened.text.contains("id=\"sheet-approve\"") == payable)
        return try RawHTTPClient(port: server.port).request(
            "POST", url.path, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("sessionToken=\(token)&action=\(action)".utf8))
    }

    func waitForStatus(_ server: TestServer, _ orderId: String, _ status: String) throws -> JSONValue? {
        for _ in 0..<1500 {  // up to 30 s on a loaded machine
            let order = try get(server, "/platform/v2/onramp/orders/\(orderId)").body["order"]
            if order?["status"]?.stringValue == status { return order }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    @Test func verificationsIssueACodeAndConfirmIt() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock)
        let started = try post(
            server, "/platform/v2/onramp/verifications", ["channel": "sms", "destination": .string(Self.phone)])
        #expect(started.status == 201, "\(started.body)")
        let id = try #require(started.body["verificationId"]?.stringValue)
        #expect(id.hasPrefix("onramp_verification_") && id.count == 56)
        #expect(started.body["otpExpiresAt"]?.stringValue?.hasSuffix("Z") == true)
        let submit = "/platform/v2/onramp/verifications/\(id)/submit"
        let wrong = try post(server, submit, ["otpCode": "123456"])
        #expect(wrong.status == 400 && wrong.body["errorType"] == "otp_verification_code_invalid")
        let right = try post(server, submit, ["otpCode": "000000"])
        #expect(right.status == 200, "\(right.body)")
        #expect(right.body["verificationId"] == .string(id))
        #expect(right.body["verificationExpiresAt"]?.stringValue?.isEmpty == false)
        #expect(try post(server, submit, ["otpCode": "000000"]).status == 200, "a repeated submit confirms again")
        #expect(try post(server, submit, ["otpCode": "999999"]).status == 400, "but only with the right code")
        let unknown = try post(
            server, "/platform/v2/onramp/verifications/onramp_verification_00000000-0000-0000-0000-000000000000/submit",
            ["otpCode": "000000"])
        #expect(unknown.status == 404 && unknown.body["errorType"] == "otp_verification_not_found")
        #expect(try post(server, submit, ["otpCode": "12345"]).status == 400)
        let badChannel = try post(server, "/platform/v2/onramp/verifications", ["channel": "fax", "destination": "1"])
        #expect(badChannel.status == 400 && badChannel.body["errorType"] == "invalid_request")
        let badPhone = try post(
            server, "/platform/v2/onramp/verifications", ["channel": "sms", "destination": "4155550123"])
        #expect(badPhone.status == 400)

        // Five wrong codes revoke a verification; a code is good for 10 minutes.
        let other = try #require(
            try post(server, "/platform/v2/onramp/verifications", ["channel": "email", "destination": "A@Example.com"])
                .body["verificationId"]?.stringValue)
        for _ in 0..<5 {
            _ = try post(server, "/platform/v2/onramp/verifications/\(other)/submit", ["otpCode": "111111"])
        }
        let revoked = try post(server, "/platform/v2/onramp/verifications/\(other)/submit", ["otpCode": "000000"])
        #expect(revoked.status == 400 && revoked.body["errorType"] == "otp_verification_invalid")
        let late = try #require(
            try post(
                server, "/platform/v2/onramp/verifications", ["channel": "sms", "destination": .string(Self.phone)]
            )
            .body["verificationId"]?.stringValue)
        clock.advance(by: 601)
        let expired = try post(server, "/platform/v2/onramp/verifications/\(late)/submit", ["otpCode": "000000"])
        #expect(expired.status == 400 && expired.body["errorType"] == "otp_verification_code_invalid")
    }

    /// Five codes per phone number or email in any 10 minutes, whichever partner asks; the sixth is the
    /// endpoint's documented 429 with `Retry-After`, and nothing is written for it.
    @Test(arguments: DatabaseDriver.all)
    func codesToOneDestinationAreThrottled(driver: DatabaseDriver) throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, driver: driver)
        let path = "/platform/v2/onramp/verifications"
        let victim: JSONValue = ["channel": "sms", "destination": "+14155550199"]
        for minute in 0..<5 {
            #expect(try post(server, path, victim).status == 201)
            clock.advance(by: 60 * Double(minute == 0 ? 3 : 1))
        }
        let other = try ProjectProvisioner(database: server.database, clock: clock).createProject(
            name: "Other wallet", appIds: [], redirectHosts: [], keyType: .es256)
        let key = try CDPAPIKey(id: other.cdpApiKeyId, secret: other.cdpApiKeySecret)
        let jwt = try key.jwt(method: "POST", host: "127.0.0.1:\(server.port)", path: path, at: clock.now())
        let refused = try server.request("POST", path, json: victim, headers: [("Authorization", "Bearer \(jwt)")])
        #expect(refused.status == 429 && refused.body["errorType"] == "rate_limit_exceeded", "\(refused.body)")
        // The first code went 7 minutes ago: its slot frees in 3 minutes.
        #expect(refused.headers["retry-after"] == "180")
        let stored = try server.database.read {
            try $0.query("SELECT COUNT(*) AS n FROM onramp_verifications WHERE destination = '+14155550199'")
        }
        #expect(try stored.first?.int("n") == 5)
        let email = try post(server, path, ["channel": "email", "destination": "ada@example.com"])
        #expect(email.status == 201, "another destination is not throttled")
        clock.advance(by: 180)
        #expect(try post(server, path, victim).status == 201, "the oldest code's 10 minutes are over")
        #expect(try post(server, path, victim).status == 429)
    }

    /// A test-mode project that moves its clock 30 days and spends a phone number's codes and weekly limit
    /// blocks nobody in live mode: the per-person counters are kept apart per mode and judged in real time
    /// (before, the live partner got 429 `guest_transaction_limit` for ~30 days and a `Retry-After` of a
    /// month for the codes).
    @Test(arguments: DatabaseDriver.all)
    func aTestProjectWithAMovedClockNeverLimitsALiveProject(driver: DatabaseDriver) throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, driver: driver)
        let month: TimeInterval = 30 * 86_400
        let advanced = try post(server, "/platform/v2/onramp/test_clocks/advance", ["seconds": .integer(Int(month))])
        #expect(advanced.status == 200, "\(advanced.body)")
        let projectNow = clock.now().addingTimeInterval(month)
        let codes = "/platform/v2/onramp/verifications"
        let victim: JSONValue = ["channel": "sms", "destination": .string(Self.phone)]
        for _ in 0..<5 { #expect(try post(server, codes, victim).status == 201) }
        let ownThrottle = try server.request(
            "POST", codes, json: victim, headers: [("Authorization", "Bearer \(try server.jwt("POST", codes))")])
        #expect(ownThrottle.status == 429)
        #expect(Int(ownThrottle.headers["retry-after"] ?? "") ?? .max <= 600, "judged in real time")
        let orders = "/platform/v2/onramp/orders"
        for _ in 0..<4 {
            let order = try post(server, orders, Self.orderBody([("paymentAmount", "120.00")], verifiedAt: projectNow))
            #expect(order.status == 201, "\(order.body)")
        }
        let over = try post(server, orders, Self.orderBody([("paymentAmount", "25.00")], verifiedAt: projectNow))
        #expect(over.status == 429 && over.body["errorType"] == "guest_transaction_limit", "its own mode's limit")

        let live = try ProjectProvisioner(database: server.database, clock: clock).createProject(
            name: "Live wallet", appIds: [], redirectHosts: [], keyType: .es256, livemode: true)
        let key = try CDPAPIKey(id: live.cdpApiKeyId, secret: live.cdpApiKeySecret)
        func asLive(_ path: String, _ body: JSONValue) throws -> (
            status: Int, body: JSONValue, headers: [String: String]
        ) {
            let jwt = try key.jwt(method: "POST", host: "127.0.0.1:\(server.port)", path: path, at: clock.now())
            return try server.request("POST", path, json: body, headers: [("Authorization", "Bearer \(jwt)")])
        }
        #expect(try asLive(codes, victim).status == 201, "test mode's codes do not throttle live mode")
        let limits = try asLive(
            "/platform/v2/onramp/limits",
            [
                "paymentMethodType": "GUEST_CHECKOUT_APPLE_PAY", "userId": .string(Self.phone),
                "userIdType": "phone_number",
            ])
        #expect(limits.body["limits"]?.arrayValue?.first?["remaining"] == "500.00", "\(limits.body)")
        let liveOrder = try asLive(orders, Self.orderBody([("paymentAmount", "400.00")], verifiedAt: clock.now()))
        #expect(liveOrder.status == 201, "\(liveOrder.body)")
    }

    /// `X-Idempotency-Key` on a verification (cdp-sdk 1.51.0 `initiate_onramp_verification`): a retry answers
    /// the first call's verification and sends no second code; the key with another body is 422
    /// `idempotency_error` and writes nothing.
    @Test(arguments: DatabaseDriver.all)
    func aRetriedVerificationSendsNoSecondCode(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let path = "/platform/v2/onramp/verifications"
        func initiate(_ body: JSONValue, key: String) throws -> (
            status: Int, body: JSONValue, headers: [String: String]
        ) {
            try server.request(
                "POST", path, json: body,
                headers: [("Authorization", "Bearer \(try server.jwt("POST", path))"), ("X-Idempotency-Key", key)])
        }
        let body: JSONValue = ["channel": "sms", "destination": "+14155550177"]
        let first = try initiate(body, key: "verify-1")
        let retry = try initiate(body, key: "verify-1")
        #expect(first.status == 201 && retry.status == 201)
        #expect(first.body["verificationId"] == retry.body["verificationId"], "\(retry.body)")
        let changed = try initiate(["channel": "sms", "destination": "+14155550178"], key: "verify-1")
        #expect(changed.status == 422 && changed.body["errorType"] == "idempotency_error", "\(changed.body)")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_verifications") == 1, "one code sent")
        #expect(try initiate(body, key: "verify-2").body["verificationId"] != first.body["verificationId"])
    }

    /// A limit upgrade (cdp-sdk 1.51.0 `request_limits_upgrade`, API mode) moves the limits a later order is
    /// checked against: `0000` activates it (2,500 USD a week, no count), other values leave it `pending`;
    /// unknown fields, embedded mode and a bad SSN are refused in CDP's shape and write nothing.
    @Test(arguments: DatabaseDriver.all)
    func aLimitUpgradeRaisesTheLimitsOrdersAreCheckedAgainst(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let limitsPath = "/platform/v2/onramp/limits"
        let upgradePath = "/platform/v2/onramp/limits/upgrade"
        let who: [(String, JSONValue)] = [("userId", .string(Self.phone)), ("userIdType", "phone_number")]
        func limits() throws -> JSONValue {
            try post(server, limitsPath, .object(who + [("paymentMethodType", "GUEST_CHECKOUT_APPLE_PAY")])).body
        }
        func upgrade(_ fields: JSONValue, mode: JSONValue? = nil) throws -> (status: Int, body: JSONValue) {
            try post(
                server, upgradePath,
                .object(who + [("fields", fields)] + (mode.map { [("interactionMode", $0)] } ?? [])))
        }
        let dob: JSONValue = ["day": "01", "month": "02", "year": "1990"]
        #expect(try limits()["limitUpgradeOptions"]?.arrayValue?.first?["status"] == "unrequested")
        for _ in 0..<4 {
            #expect(
                try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "120.00")])).status
                    == 201)
        }
        #expect(
            try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "25.00")])).status == 429)
        let refusals: [(JSONValue, JSONValue?)] = [
            (["ssnLast4": "0000", "dateOfBirth": dob, "ssn": "123456789"], nil),
            (["ssnLast4": "12a4", "dateOfBirth": dob], nil), (["ssnLast4": "0000", "dateOfBirth": dob], "embedded"),
            (["ssnLast4": "0000", "dateOfBirth": ["day": "31", "month": "02", "year": "1990"]], nil),
        ]
        for (fields, mode) in refusals {
            let refused = try upgrade(fields, mode: mode)
            #expect(refused.status == 400 && refused.body["errorType"] == "invalid_request", "\(refused.body)")
        }
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_limit_upgrades") == 0)
        #expect(try upgrade(["ssnLast4": "1234", "dateOfBirth": dob]).status == 202)
        let pending = try limits()
        #expect(pending["limitUpgradeOptions"]?.arrayValue?.first?["status"] == "pending")
        #expect(pending["limits"]?.arrayValue?.first?["limit"] == "500.00")
        #expect(try upgrade(["ssnLast4": "0000", "dateOfBirth": dob]).status == 202)
        let active = try limits()
        let option = try #require(active["limitUpgradeOptions"]?.arrayValue?.first)
        #expect(option["status"] == "active" && option["fields"] == [], "\(option)")
        #expect(active["limits"]?.arrayValue?.map { $0["limit"] } == ["2500.00", "2147483647"], "\(active)")
        #expect(
            try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "25.00")])).status == 201)
    }

    @Test(arguments: DatabaseDriver.all)
    func anApprovedOrderSettlesAndSendsOrderFormWebhooks(driver: DatabaseDriver) throws {
        let server = try TestServer(settlementDelay: 0.05, driver: driver)
        let receiver = try WebhookReceiver()
        let subscription = try post(
            server, "/platform/v2/data/webhooks/subscriptions",
            [
                "eventTypes": [
                    "onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success",
                ],
                "isEnabled": true, "target": ["url": .string(receiver.url)],
            ])
        let secret = try #require(subscription.body["secret"]?.stringValue)
        let created = try post(server, "/platform/v2/onramp/orders", Self.orderBody())
        #expect(created.status == 201, "\(created.body)")
        let order = try #require(created.body["order"])
        let orderId = try #require(order["orderId"]?.stringValue)
        #expect(order["status"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT")
        #expect(order["paymentTotal"] == "25.00")
        #expect(order["purchaseAmount"] == "24.36")
        #expect(order["paymentMethod"] == "GUEST_CHECKOUT_APPLE_PAY")
        #expect(
            order["fees"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == [
                "FEE_TYPE_EXCHANGE", "FEE_TYPE_NETWORK",
            ])
        #expect(order["partnerUserRef"] == "guest-1")
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        #expect(created.body["paymentLink"]?["paymentLinkType"] == "PAYMENT_LINK_TYPE_APPLE_PAY_BUTTON")
        #expect(link.contains("/v2/api-onramp/apple-pay?sessionToken="))

        let approved = try Self.pay(server, link: link, action: "approve")
        #expect(approved.status == 200)
        #expect(approved.text.contains("Payment approved"))
        let completed = try #require(try waitForStatus(server, orderId, "ONRAMP_ORDER_STATUS_COMPLETED"))
        #expect(completed["txHash"]?.stringValue?.hasPrefix("0x") == true)

        // created, updated (PROCESSING), updated (COMPLETED), success: signed, in the order form.
        #expect(receiver.wait { $0.count >= 4 })
        let bodies = receiver.deliveries.compactMap { try? JSONParser().parse($0.body) }
        #expect(
            bodies.map { $0["eventType"]?.stringValue ?? "" }.sorted() == [
                "onramp.transaction.created", "onramp.transaction.success", "onramp.transaction.updated",
                "onramp.transaction.updated",
            ])
        #expect(bodies.allSatisfy { $0["orderId"] == .string(orderId) && $0["transactionId"] == nil })
        #expect(bodies.contains { $0["status"] == "ONRAMP_ORDER_STATUS_COMPLETED" && $0["paymentAmount"] == "25.00" })
        let checks = try PythonVerifier.verify(receiver.deliveries.map { ("cdp", secret, $0) })
        #expect(checks.allSatisfy { $0.ok }, "\(checks)")

        // The guest's limits count it.
        let limits = try post(
            server, "/platform/v2/onramp/limits",
            [
                "paymentMethodType": "GUEST_CHECKOUT_APPLE_PAY", "userId": .string(Self.phone),
                "userIdType": "phone_number",
            ])
        #expect(limits.status == 200, "\(limits.body)")
        let values = limits.body["limits"]?.arrayValue ?? []
        #expect(values.first { $0["limitType"] == "weekly_spending" }?["remaining"] == "475.00")
        #expect(values.first { $0["limitType"] == "weekly_spending" }?["limit"] == "500.00")
        #expect(values.first { $0["limitType"] == "lifetime_transactions" }?["remaining"] == "14")
        // The paid link is spent: approving again changes nothing.
        let again = try Self.pay(server, link: link, action: "decline", payable: false)
        #expect(!again.text.contains("declined"))
        #expect(
            try get(server, "/platform/v2/onramp/orders/\(orderId)").body["order"]?["status"]
                == "ONRAMP_ORDER_STATUS_COMPLETED")
    }

    @Test func aDeclinedOrderFailsWithItsFailureEventOnlyAndACancelChangesNothing() throws {
        let server = try TestServer()
        let created = try post(server, "/platform/v2/onramp/orders", Self.orderBody())
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue)
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        let cancelled = try Self.pay(server, link: link, action: "cancel")
        #expect(cancelled.text.contains("Payment cancelled"))
        #expect(
            try get(server, "/platform/v2/onramp/orders/\(orderId)").body["order"]?["status"]
                == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT")
        let declined = try Self.pay(server, link: link, action: "decline")
        #expect(declined.text.contains("The payment was declined."))
        #expect(
            try get(server, "/platform/v2/onramp/orders/\(orderId)").body["order"]?["status"]
                == "ONRAMP_ORDER_STATUS_FAILED")
        // Reopened, the page shows the failure's reason and no pay button; its status poll says the same.
        let reopened = try server.request("GET", URL(string: link).map { $0.path + "?" + ($0.query ?? "") } ?? link)
        let page = reopened.body.stringValue ?? ""
        #expect(page.contains("Reason: FAILURE_REASON_PAYMENT_DECLINED") && !page.contains(#"id="pay-form""#))
        let types = try server.database.read {
            try $0.query("SELECT type FROM outbox_events ORDER BY created_at, type").map { try $0.string("type") }
        }
        #expect(
            types.sorted() == ["onramp.transaction.created", "onramp.transaction.failed", "onramp.transaction.updated"])
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try get(server, "/platform/v2/onramp/orders/\(orderId)").body["order"]?["txHash"] == nil)
    }

    @Test func ordersAreRefusedInTheContractsErrorShapeAndNothingIsWritten() throws {
        let server = try TestServer()
        let old = Date().addingTimeInterval(-61 * 86_400)
        let cases: [(JSONValue, Int, String)] = [
            (
                Self.orderBody([("userAuthToken", "forged")], removing: ["phoneNumber", "email"]), 400,
                "invalid_request"
            ),
            (Self.orderBody(removing: ["email"]), 400, "invalid_request"),
            (Self.orderBody(removing: ["agreementAcceptedAt"]), 400, "invalid_request"),
            (Self.orderBody(removing: ["phoneNumberVerifiedAt"]), 400, "invalid_request"),
            (Self.orderBody(verifiedAt: old), 400, "phone_number_verification_expired"),
            (Self.orderBody([("phoneNumber", "+447700900123")]), 400, "guest_region_forbidden"),
            (Self.orderBody([("paymentCurrency", "EUR")]), 400, "guest_region_forbidden"),
            (Self.orderBody([("paymentMethod", "CARD")]), 400, "invalid_request"),
            (Self.orderBody([("purchaseAmount", "10")]), 400, "invalid_request"),
            (Self.orderBody([("destinationNetwork", "dogechain")]), 400, "network_not_tradable"),
            (Self.orderBody([("destinationAddress", "0x1234")]), 400, "invalid_request"),
            (Self.orderBody([("locale", "not a locale")]), 400, "invalid_request"),
            (
                Self.orderBody([("smsVerificationId", "onramp_verification_00000000-0000-0000-0000-000000000000")]),
                404,
                "otp_verification_not_found"
            ),
        ]
        for (body, status, type) in cases {
            let answer = try post(server, "/platform/v2/onramp/orders", body)
            #expect(answer.status == status, "\(type): \(answer.body)")
            #expect(answer.body["errorType"] == .string(type), "\(answer.body)")
            #expect(answer.body["correlationId"]?.stringValue?.hasPrefix("req_") == true)
        }
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_orders") == 0)
        #expect(try server.count("SELECT COUNT(*) AS n FROM outbox_events") == 0)
        let missing = try get(server, "/platform/v2/onramp/orders/9f3c1e8e-0000-4000-8000-000000000000")
        #expect(missing.status == 404 && missing.body["errorType"] == "not_found")
    }

    @Test func aVerificationForAnotherPhoneIsADestinationMismatch() throws {
        let server = try TestServer()
        let id = try #require(
            try post(server, "/platform/v2/onramp/verifications", ["channel": "sms", "destination": "+12025550100"])
                .body["verificationId"]?.stringValue)
        _ = try post(server, "/platform/v2/onramp/verifications/\(id)/submit", ["otpCode": "000000"])
        let mismatch = try post(
            server, "/platform/v2/onramp/orders", Self.orderBody([("smsVerificationId", .string(id))]))
        #expect(mismatch.status == 400 && mismatch.body["errorType"] == "otp_verification_destination_mismatch")
        let ok = try post(
            server, "/platform/v2/onramp/orders",
            Self.orderBody(
                [("smsVerificationId", .string(id)), ("phoneNumber", "+12025550100")],
                removing: ["phoneNumberVerifiedAt"]))
        #expect(ok.status == 201, "\(ok.body)")
    }

    /// A retry with the same `X-Idempotency-Key` answers the first order and its payment link; the key
    /// with another body is a 422; one order is stored.
    @Test func orderCreationIsIdempotentOnItsKey() throws {
        let server = try TestServer()
        let path = "/platform/v2/onramp/orders"
        let body = Self.orderBody()
        func create(_ body: JSONValue, key: String) throws -> (status: Int, body: JSONValue) {
            let response = try server.request(
                "POST", path, json: body,
                headers: [("Authorization", "Bearer \(try server.jwt("POST", path))"), ("X-Idempotency-Key", key)])
            return (response.status, response.body)
        }
        let first = try create(body, key: "order-42")
        let retry = try create(body, key: "order-42")
        #expect(first.status == 201 && retry.status == 201)
        #expect(retry.body["order"]?["orderId"] == first.body["order"]?["orderId"])
        #expect(retry.body["paymentLink"]?["url"] == first.body["paymentLink"]?["url"])
        let other = try create(Self.orderBody([("paymentAmount", "30.00")]), key: "order-42")
        #expect(other.status == 422 && other.body["errorType"] == "idempotency_error")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_orders") == 1)
        #expect(try server.count("SELECT COUNT(*) AS n FROM outbox_events") == 1)
    }

    /// Parallel orders under one `X-Idempotency-Key` make one order: on PostgreSQL the losers of the insert
    /// race answer as retries (the same order and link) instead of failing.
    @Test(arguments: DatabaseDriver.all)
    func parallelOrdersUnderOneKeyMakeOneOrder(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let path = "/platform/v2/onramp/orders"
        let body = Self.orderBody()
        let tokens = try (0..<8).map { _ in try server.jwt("POST", path) }
        let answers = Mutex<[(status: Int, orderId: String?)]>([])
        let done = DispatchGroup()
        for token in tokens {
            done.enter()
            Thread {
                let response = try? server.request(
                    "POST", path, json: body,
                    headers: [("Authorization", "Bearer \(token)"), ("X-Idempotency-Key", "parallel-order")])
                answers.withLock {
                    $0.append((response?.status ?? 0, response?.body["order"]?["orderId"]?.stringValue))
                }
                done.leave()
            }.start()
        }
        done.wait()
        let all = answers.withLock { $0 }
        #expect(all.allSatisfy { $0.status == 201 }, "\(all)")
        #expect(Set(all.compactMap(\.orderId)).count == 1)
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_orders") == 1)
        #expect(try server.count("SELECT COUNT(*) AS n FROM outbox_events") == 1)
    }

    /// Embedded mode (cdp-sdk 1.51.0 `OnrampLimitUpgradeEmbeddedResponse`): 200 `{upgradeUrl, expiresAt}`; the page
    /// takes the identity fields once (a wrong field shows the form again and keeps the link), and the upgrade
    /// moves the limits a later order is checked against. A reused, forged or expired link changes nothing.
    @Test(arguments: DatabaseDriver.all)
    func anEmbeddedLimitUpgradeIsTakenOnceOnItsPage(driver: DatabaseDriver) throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, driver: driver)
        let who: [(String, JSONValue)] = [("userId", .string(Self.phone)), ("userIdType", "phone_number")]
        func embedded() throws -> (status: Int, body: JSONValue) {
            try post(server, "/platform/v2/onramp/limits/upgrade", .object(who + [("interactionMode", "embedded")]))
        }
        func limits() throws -> JSONValue {
            try post(
                server, "/platform/v2/onramp/limits", .object(who + [("paymentMethodType", "GUEST_CHECKOUT_APPLE_PAY")])
            ).body
        }
        func page(_ token: String) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: server.port).request("GET", "/v2/api-onramp/upgrade-limits?sessionToken=\(token)")
        }
        func submit(_ token: String, ssn: String, day: String = "01") throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: server.port).request(
                "POST", "/v2/api-onramp/upgrade-limits",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("sessionToken=\(token)&ssnLast4=\(ssn)&month=02&day=\(day)&year=1990".utf8))
        }
        func token(_ answer: (status: Int, body: JSONValue)) throws -> String {
            let url = try #require(answer.body["upgradeUrl"]?.stringValue)
            #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/v2/api-onramp/upgrade-limits?sessionToken="))
            return try #require(URLComponents(string: url)?.queryItems?.first?.value)
        }
        for _ in 0..<4 {
            #expect(
                try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "120.00")])).status
                    == 201)
        }
        let answered = try embedded()
        #expect(answered.status == 200, "\(answered.body)")
        let expiresAt = try #require(answered.body["expiresAt"]?.stringValue)
        let expiry = try #require(ISO8601DateFormatter().date(from: expiresAt), "\(expiresAt)")
        #expect(abs(expiry.timeIntervalSince(clock.now()) - 15 * 60) < 1)
        let link = try token(answered)
        // Asking changes nothing until the user submits.
        #expect(try limits()["limitUpgradeOptions"]?.arrayValue?.first?["status"] == "unrequested")
        #expect(try page("forged").status == 400)
        let form = try page(link)
        #expect(form.status == 200 && form.text.contains("id=\"upgrade-form\""))

        let wrong = try submit(link, ssn: "12a4")
        #expect(wrong.status == 400 && wrong.text.contains("last 4 digits") && wrong.text.contains("upgrade-form"))
        #expect(try submit(link, ssn: "0000", day: "30").text.contains("valid {day, month, year}"), "30 February")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_limit_upgrades") == 0)

        let done = try submit(link, ssn: "0000")
        #expect(done.status == 200 && done.text.contains("data-status=\"active\""), "\(done.text)")
        #expect(try limits()["limits"]?.arrayValue?.first?["limit"] == "2500.00")
        #expect(
            try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "25.00")])).status == 201)

        // Used once: the page and a second submission are refused and write nothing.
        let requestedAt = try server.count("SELECT requested_at AS n FROM onramp_limit_upgrades")
        #expect(try page(link).status == 400)
        let again = try submit(link, ssn: "9999")
        #expect(again.status == 400 && again.text.contains("was used, has expired"), "\(again.text)")
        #expect(try server.count("SELECT requested_at AS n FROM onramp_limit_upgrades") == requestedAt)
        #expect(try limits()["limitUpgradeOptions"]?.arrayValue?.first?["status"] == "active")

        // A link past its 15 minutes is refused too; fields in embedded mode are refused in CDP's shape.
        let late = try token(try embedded())
        clock.advance(by: 15 * 60 + 1)
        #expect(try submit(late, ssn: "0000").status == 400)
        let withFields = try post(
            server, "/platform/v2/onramp/limits/upgrade",
            .object(who + [("interactionMode", "embedded"), ("fields", ["ssnLast4": "0000"])]))
        #expect(withFields.status == 400 && withFields.body["errorType"] == "invalid_request", "\(withFields.body)")
        #expect(withFields.body["errorMessage"]?.stringValue?.contains("Omit fields in embedded mode") == true)
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_limit_upgrade_links") == 2)
    }

    /// `X-Onramp-Partner-Id` (cdp-sdk 1.51.0 `create_onramp_order`): ignored for a project that is no aggregator;
    /// an aggregator's unregistered partner is refused and nothing is written; a registered one scopes the order,
    /// shown as `partnerId` on it and on its signed webhooks, and a retry under the same key must repeat it.
    @Test(arguments: DatabaseDriver.all)
    func anAggregatorsOrderIsScopedToItsEndPartner(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let receiver = try WebhookReceiver()
        let subscription = try post(
            server, "/platform/v2/data/webhooks/subscriptions",
            ["eventTypes": ["onramp.transaction.created"], "isEnabled": true, "target": ["url": .string(receiver.url)]])
        let secret = try #require(subscription.body["secret"]?.stringValue)
        let path = "/platform/v2/onramp/orders"
        // One time for every body: a retry must send the same body, and a second passing between two calls would
        // change its timestamps (and make the retry a 422).
        let verifiedAt = Date()
        func create(_ user: String, partner: String?, key: String? = nil) throws -> (status: Int, body: JSONValue) {
            var headers = [("Authorization", "Bearer \(try server.jwt("POST", path))")]
            if let partner { headers.append(("X-Onramp-Partner-Id", partner)) }
            if let key { headers.append(("X-Idempotency-Key", key)) }
            let response = try server.request(
                "POST", path, json: Self.orderBody([("partnerUserRef", .string(user))], verifiedAt: verifiedAt),
                headers: headers)
            return (response.status, response.body)
        }
        let ignored = try create("direct", partner: "not-an-aggregator")
        #expect(ignored.status == 201, "\(ignored.body)")
        #expect(ignored.body["order"]?["partnerId"] == nil)

        let partnerId = try ProjectProvisioner(database: server.database).addEndPartner(
            name: "Corner Shop", projectId: server.projectId)
        #expect(
            throws: ProjectProvisioner.ProvisioningError.self,
            performing: {
                try ProjectProvisioner(database: server.database).addEndPartner(
                    name: "Again", partnerId: partnerId, projectId: server.projectId)
            })
        let orders = try server.count("SELECT COUNT(*) AS n FROM onramp_orders")
        let unknown = try create("forged", partner: "someone-else")
        #expect(unknown.status == 400 && unknown.body["errorType"] == "invalid_request", "\(unknown.body)")
        let blank = try create("blank", partner: String(repeating: "x", count: 129))
        #expect(blank.status == 400 && blank.body["errorType"] == "invalid_request", "\(blank.body)")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_orders") == orders)

        let scoped = try create("aggregated", partner: partnerId, key: "scoped-1")
        #expect(scoped.status == 201, "\(scoped.body)")
        #expect(scoped.body["order"]?["partnerId"] == .string(partnerId))
        let orderId = try #require(scoped.body["order"]?["orderId"]?.stringValue)
        #expect(try get(server, "\(path)/\(orderId)").body["order"]?["partnerId"] == .string(partnerId))
        let retried = try create("aggregated", partner: partnerId, key: "scoped-1")
        #expect(retried.body["order"]?["orderId"] == .string(orderId), "\(retried.status) \(retried.body)")
        let unscopedRetry = try create("aggregated", partner: nil, key: "scoped-1")
        #expect(unscopedRetry.status == 422 && unscopedRetry.body["errorType"] == "idempotency_error")
        // An aggregator may still order for itself.
        #expect(try create("own", partner: nil).body["order"]?["partnerId"] == nil)

        #expect(receiver.wait { $0.count >= 3 })
        let bodies = receiver.deliveries.compactMap { try? JSONParser().parse($0.body) }
        #expect(bodies.filter { $0["partnerId"] == .string(partnerId) }.map { $0["orderId"] } == [.string(orderId)])
        #expect(bodies.filter { $0["partnerId"] != nil }.count == 1)
        let parsed = try CDPPayloadModels.parse(bodies.map { ("OnrampOrderPayload", $0) })
        #expect(parsed.allSatisfy { $0.error == nil }, "\(parsed)")
        #expect(parsed.compactMap { $0.parsed?["partnerId"]?.stringValue } == [partnerId])
        let checks = try PythonVerifier.verify(receiver.deliveries.map { ("cdp", secret, $0) })
        #expect(checks.allSatisfy { $0.ok }, "\(checks)")
    }

    /// Limits belong to the person: orders through another partner count, and an unpaid order whose link
    /// expired does not.
    @Test func limitsCountEveryPartnerAndNotExpiredUnpaidOrders() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock)
        let now = clock.now()
        #expect(
            try post(
                server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "400.00")], verifiedAt: now)
            ).status == 201)
        let other = try ProjectProvisioner(database: server.database, clock: clock).createProject(
            name: "Other wallet", appIds: [], redirectHosts: [], keyType: .es256)
        let key = try CDPAPIKey(id: other.cdpApiKeyId, secret: other.cdpApiKeySecret)
        let path = "/platform/v2/onramp/orders"
        func otherPartner(_ amount: String) throws -> (status: Int, body: JSONValue) {
            let jwt = try key.jwt(method: "POST", host: "127.0.0.1:\(server.port)", path: path, at: clock.now())
            let response = try server.request(
                "POST", path, json: Self.orderBody([("paymentAmount", .string(amount))], verifiedAt: clock.now()),
                headers: [("Authorization", "Bearer \(jwt)")])
            return (response.status, response.body)
        }
        let refused = try otherPartner("150.00")
        #expect(refused.status == 429 && refused.body["errorType"] == "guest_transaction_limit", "\(refused.body)")
        // The first order was never paid: 16 minutes later its link has expired and it counts no more.
        clock.advance(by: 16 * 60)
        #expect(try otherPartner("150.00").status == 201)
    }

    /// A sandbox order settles through the simulator, never the real provider; its page says so.
    @Test func aSandboxOrderNeverReachesTheRealProvider() throws {
        let provider = SettlementClaimTests.CountingSettlement()
        let server = try TestServer(settlementDelay: 0.01, settlement: provider)
        let created = try post(
            server, "/platform/v2/onramp/orders", Self.orderBody([("partnerUserRef", "sandbox-guest-1")]))
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue)
        let page = try RawHTTPClient(port: server.port).request(
            "GET", String(link.dropFirst("http://127.0.0.1:\(server.port)".count)))
        #expect(page.text.contains("Sandbox purchase"))
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        _ = try Self.pay(server, link: link, action: "approve")
        #expect(try waitForStatus(server, orderId, "ONRAMP_ORDER_STATUS_COMPLETED") != nil)
        #expect(provider.calls.withLock { $0 } == 0)
        let live = try post(server, "/platform/v2/onramp/orders", Self.orderBody([("domain", "app.example.com:8443")]))
        let livePage = try RawHTTPClient(port: server.port).request(
            "GET",
            String(
                (live.body["paymentLink"]?["url"]?.stringValue ?? "").dropFirst("http://127.0.0.1:\(server.port)".count)
            ))
        #expect(!livePage.text.contains("Sandbox purchase"))
        #expect(
            livePage.headers["content-security-policy"]?.contains("frame-ancestors https://app.example.com:8443")
                == true)
    }

    /// The weekly limit (500 USD by default) and its `guest_transaction_limit`, quotes included; a quote
    /// stores nothing and has no payment link.
    @Test func theWeeklyGuestLimitAndQuotes() throws {
        let server = try TestServer()
        let quote = try post(server, "/platform/v2/onramp/orders", Self.orderBody([("isQuote", true)]))
        #expect(quote.status == 201)
        #expect(quote.body["paymentLink"] == nil)
        #expect(quote.body["order"]?["paymentTotal"] == "25.00")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_orders") == 0)
        for _ in 0..<4 {
            #expect(
                try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "120.00")])).status
                    == 201)
        }
        let over = try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "25.00")]))
        #expect(over.status == 429 && over.body["errorType"] == "guest_transaction_limit", "\(over.body)")
        #expect(over.body["errorMessage"]?.stringValue?.contains("20.00 USD left") == true)
        let overQuote = try post(server, "/platform/v2/onramp/orders", Self.orderBody([("isQuote", true)]))
        #expect(overQuote.status == 429)
        #expect(
            try post(server, "/platform/v2/onramp/orders", Self.orderBody([("paymentAmount", "20.00")])).status == 201)
        // Another phone has a week of its own; a sandbox order counts toward nothing.
        #expect(
            try post(server, "/platform/v2/onramp/orders", Self.orderBody([("phoneNumber", "+12025550100")])).status
                == 201)
        #expect(
            try post(server, "/platform/v2/onramp/orders", Self.orderBody([("partnerUserRef", "sandbox-guest-1")]))
                .status == 201)
    }
}

/// The payment-button page in a real headless Chromium, driven as Coinbase's demo app drives it: it
/// loads, the pay button is clicked, the sandbox sheet is approved, declined or cancelled, and the widget
/// events the page posts arrive in order. Screenshots are kept in `artifacts/`.
@Suite(.serialized, .blocking) struct PaymentButtonBrowserTests {
    @Test(arguments: [
        (
            "approve",
            [
                "onramp_api.load_pending", "onramp_api.load_success", "onramp_api.commit_success",
                "onramp_api.polling_start", "onramp_api.polling_success",
            ], "ONRAMP_ORDER_STATUS_COMPLETED"
        ),
        (
            "decline", ["onramp_api.load_pending", "onramp_api.load_success", "onramp_api.commit_error"],
            "ONRAMP_ORDER_STATUS_FAILED"
        ),
        (
            "cancel", ["onramp_api.load_pending", "onramp_api.load_success", "onramp_api.cancel"],
            "ONRAMP_ORDER_STATUS_PENDING_PAYMENT"
        ),
        (
            "auto",
            [
                "onramp_api.load_pending", "onramp_api.load_success", "onramp_api.commit_success",
                "onramp_api.polling_start", "onramp_api.polling_success",
            ], "ONRAMP_ORDER_STATUS_COMPLETED"
        ),
    ])
    func chromiumPaysOnTheButtonPage(action: String, expected: [String], finalStatus: String) async throws {
        let server = try TestServer(settlementDelay: 0.05)
        let path = "/platform/v2/onramp/orders"
        // Only a sandbox order's sheet answers itself.
        let body = HeadlessOnrampTests.orderBody(action == "auto" ? [("partnerUserRef", "sandbox-guest-1")] : [])
        let created = try server.request(
            "POST", path, json: body, headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        let link = try #require(created.body["paymentLink"]?["url"]?.stringValue)
        let orderId = try #require(created.body["order"]?["orderId"]?.stringValue)
        let artifacts = Python.repositoryRoot.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let prefix = artifacts.appendingPathComponent("payment-button").path
        // The self-answering run lists its events on the page too (sandboxDebug=1).
        let url = action == "auto" ? link + "&sandboxSheet=approve&sandboxDebug=1" : link
        let output = try await Python.run("payment_button_browser.py", [url, action, prefix])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["events"]?.arrayValue?.compactMap(\.stringValue) == expected)
        #expect(FileManager.default.fileExists(atPath: "\(prefix)-\(action).png"))
        let orderPath = "\(path)/\(orderId)"
        let order = try server.request(
            "GET", orderPath, headers: [("Authorization", "Bearer \(try server.jwt("GET", orderPath))")])
        #expect(order.body["order"]?["status"] == .string(finalStatus))
        if action == "approve" || action == "auto" {
            #expect(result["eventData"]?.arrayValue?.last?["txHash"] == order.body["order"]?["txHash"])
        }
        if action == "decline" {
            #expect(result["eventData"]?.arrayValue?.last?["errorCode"] == "FAILURE_REASON_PAYMENT_DECLINED")
            #expect(result["status"]?.stringValue?.contains("Reason: FAILURE_REASON_PAYMENT_DECLINED") == true)
        }
        if action != "cancel" {
            #expect(result["payButtonShown"] == false, "a final order shows no pay button")
        }
        let listed = result["debugList"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if action == "auto" {
            #expect(listed.map { String($0.prefix { $0 != " " }) } == expected, "\(listed)")
        } else {
            #expect(listed.isEmpty, "only with sandboxDebug=1")
        }
    }
}

/// The official cdp-sdk (PyPI 1.51.0) `OnrampApi` makes the Headless Onramp calls and its pydantic models
/// parse every answer: verification, limits, a quote, an order with its payment link, the order by id,
/// and an error in the SDK's `ApiError`.
@Suite(.serialized, .blocking) struct CDPSDKHeadlessTests {
    @Test func officialClientRunsTheHeadlessCalls() async throws {
        let server = try TestServer()
        let partnerId = try ProjectProvisioner(database: server.database).addEndPartner(
            name: "Shop", projectId: server.projectId)
        let output = try await Python.run(
            "cdp_headless.py", ["http://127.0.0.1:\(server.port)"],
            environment: [
                "CDP_API_KEY_ID": server.credentials.cdpApiKeyId,
                "CDP_API_KEY_SECRET": server.credentials.cdpApiKeySecret, "CDP_END_PARTNER_ID": partnerId,
            ])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["verificationId"]?.stringValue?.hasPrefix("onramp_verification_") == true)
        #expect(result["confirmedId"] == result["verificationId"])
        #expect(result["limits"]?["weekly_spending"] == ["500.00", "500.00"])
        #expect(result["limits"]?["lifetime_transactions"] == ["15", "15"])
        #expect(result["quoteTotal"] == "25.00")
        #expect(result["quoteHasLink"] == false)
        #expect(result["orderStatus"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT")
        #expect(result["orderFees"] == ["FEE_TYPE_EXCHANGE", "FEE_TYPE_NETWORK"])
        #expect(result["paymentLinkType"] == "PAYMENT_LINK_TYPE_APPLE_PAY_BUTTON")
        // cdp-sdk 1.51.0 parses limitUpgradeOptions and sends a limit upgrade (API mode) that raises the limits.
        #expect(result["upgradeBefore"] == ["unrequested", ["ssnLast4", "dateOfBirth"]], "\(result)")
        #expect(result["upgradeAfter"] == ["active", "2500.00"], "\(result)")
        // ... and parses the embedded mode's hosted page link.
        #expect(
            result["upgradeUrl"]?.stringValue?.hasPrefix(
                "http://127.0.0.1:\(server.port)/v2/api-onramp/upgrade-limits?sessionToken=") == true, "\(result)")
        #expect(result["upgradeExpiresAt"]?.stringValue?.isEmpty == false)
        // cdp-sdk 1.51.0's own models parse an embedded-mode order (its status and link type enums).
        #expect(result["embeddedStatus"] == "ONRAMP_ORDER_STATUS_PENDING_AUTH")
        #expect(result["embeddedLinkType"] == "PAYMENT_LINK_TYPE_EMBEDDED_ORDER")
        #expect(result["embeddedToken"] == .null)
        // A user verified on the embedded page: the token, sent on a later order, skips verification.
        #expect(result["verifiedStatus"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT", "\(result)")
        #expect(result["returningStatus"] == "ONRAMP_ORDER_STATUS_PENDING_PAYMENT", "\(result)")
        #expect(result["returningTokenParsed"] == true)
        // The SDK's WebhookEventListResponse parses the subscription's event listing.
        #expect(result["webhookEventTypes"] == ["onramp.transaction.created"], "\(result)")
        #expect(result["fetchedId"] == true)
        // cdp-sdk 1.51.0 sends X-Onramp-Partner-Id and reads the order's partnerId back.
        #expect(result["partnerId"] == .string(partnerId))
        #expect(result["fetchedPartnerId"] == .string(partnerId))
        #expect(result["error"]?["httpCode"] == .number("400"))
        #expect(result["error"]?["errorType"] == "guest_region_forbidden")
    }
}

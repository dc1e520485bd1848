import Foundation
import HTTPServer
import OnrampCore
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// The requests Coinbase's own clients send, as `../shared/audits/coinbase-clients.md` §4 lists the
/// ones we broke: `coinbase/onramp-v2-mobile-demo` (app `utils/createApp2AppSession.ts` at d9a696a,
/// `hooks/useOnramp.ts`; backend `server/src/app.ts`), cdp-sdk 1.51.0 models and the API reference.
@Suite(.serialized, .blocking) struct CoinbaseClientMismatchTests {
    static let address = "0x52908400098527886E0F7030069857D2E4169EE7"

    func post(_ server: TestServer, _ path: String, _ body: JSONValue, headers: [(String, String)] = []) throws -> (
        status: Int, body: JSONValue
    ) {
        let response = try server.request(
            "POST", path, json: body, headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")] + headers)
        return (response.status, response.body)
    }

    func get(_ server: TestServer, _ path: String, _ query: String) throws -> (status: Int, body: JSONValue) {
        let response = try server.request(
            "GET", path + "?" + query, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
        return (response.status, response.body)
    }

    /// §4.2: the demo sends `appId` in the purchase challenge; Coinbase accepted it. Unknown fields are
    /// ignored across the CDP family, known ones still checked.
    @Test func unknownFieldsAreIgnoredAndKnownOnesStillChecked() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let challenge = try device.purchaseChallenge(device.purchase([("appId", "ABCDE12345.com.example.wallet")]))
        #expect(challenge.status == 201, "\(challenge.body)")
        let text = try #require(challenge.body["challenge"]?.stringValue)
        let assertion = try device.assertion(for: text)
        let session = try server.request(
            "POST", "/platform/v2/onramp/mobile/sessions",
            json: [
                "challenge": .string(text), "clientVersion": "1.2.3",
                "ios": ["keyId": .string(device.key.keyId), "assertion": .string(assertion), "extra": true],
            ])
        #expect(session.status == 201, "\(session.body)")
        let badKnown = try device.purchaseChallenge(device.purchase([("appId", "x"), ("paymentAmount", "lots")]))
        #expect(badKnown.status == 400)
        #expect(badKnown.body["errorType"] == "invalid_request")
        let token = try post(
            server, "/onramp/v1/token",
            ["addresses": [["address": .string(Self.address), "blockchains": ["base"], "label": "main"]], "x": 1])
        #expect(token.status == 200, "\(token.body)")
    }

    /// §4.11: an `android` payload gets a 4xx naming what is unsupported, not "Unknown field".
    @Test func anAndroidPayloadIsRefusedByName() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let android = try server.request(
            "POST", "/platform/v2/onramp/mobile/sessions",
            json: ["challenge": .string(text), "android": ["integrityToken": "abc"]])
        #expect(android.status == 400)
        #expect(
            android.body["errorMessage"]?.stringValue?.contains("android payload (Play Integrity) is not supported")
                == true)
        let both = try server.request(
            "POST", "/platform/v2/onramp/mobile/sessions",
            json: [
                "challenge": .string(text), "android": ["integrityToken": "abc"],
                "ios": ["keyId": .string(device.key.keyId), "assertion": .string(try device.assertion(for: text))],
            ])
        #expect(both.status == 400)
        #expect(both.body["errorMessage"]?.stringValue?.contains("exactly one platform payload") == true)
    }

    /// §4.1: the demo's widget sends `redirectUrl: 'onrampdemo://onramp-return'` to `/v2/onramp/sessions`;
    /// the project's allowlist decides (`onrampdemo://`), and App2App keeps the seed's https rule.
    @Test func hostedSessionsTakeAnAllowlistedAppScheme() throws {
        let server = try TestServer()
        let body: JSONValue = [
            "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": .string(Self.address),
            "paymentAmount": "25.00", "paymentCurrency": "USD", "redirectUrl": "onrampdemo://onramp-return",
        ]
        let refused = try post(server, "/platform/v2/onramp/sessions", body)
        #expect(refused.status == 400)
        #expect(refused.body["errorMessage"]?.stringValue?.contains("add it as onrampdemo://") == true)
        try ProjectProvisioner(database: server.database).addRedirectHost("onrampdemo://", projectId: server.projectId)
        let created = try post(server, "/platform/v2/onramp/sessions", body)
        #expect(created.status == 201, "\(created.body)")
        let url = try #require(created.body["session"]?["onrampUrl"]?.stringValue)
        let page = try HostedOnrampBrowser(port: server.port).open(url)
        let done = try HostedOnrampBrowser(port: server.port).submit(page, action: "cancel")
        #expect(done.location == "onrampdemo://onramp-return?status=cancelled")
        for bad in ["javascript://alert(1)", "http://wallet.example.com/back", "onrampdemo://x y", "nope"] {
            var fields = body.objectValue ?? []
            fields.removeAll { $0.0 == "redirectUrl" }
            let answer = try post(
                server, "/platform/v2/onramp/sessions", .object(fields + [("redirectUrl", .string(bad))]))
            #expect(answer.status == 400, "\(bad)")
        }
        // App2App: still https and an allowlisted host only.
        let device = try TestDevice(server: server)
        let app2App = try device.purchaseChallenge(device.purchase([("redirectUrl", "onrampdemo://onramp-return")]))
        #expect(app2App.status == 400)
    }

    /// §4.4: the demo appends `&partnerUserId=<userId>` to the session URL; it becomes the transaction's
    /// partnerUserRef, so the transactions API and webhooks can name the user.
    @Test func partnerUserIdOnASessionURLBecomesThePartnerUserRef() throws {
        let server = try TestServer()
        let created = try post(
            server, "/platform/v2/onramp/sessions",
            [
                "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": .string(Self.address),
                "paymentAmount": "25.00", "paymentCurrency": "USD",
                "redirectUrl": .string("https://\(TestServer.redirectHost)/back"),
            ])
        let url = try #require(created.body["session"]?["onrampUrl"]?.stringValue)
        let browser = HostedOnrampBrowser(port: server.port)
        let preview = try browser.open(url + "&partnerUserId=widget-user-9")
        let done = try browser.submit(preview, action: "confirm")
        #expect(
            done.location?.hasSuffix("status=success&partnerUserRef=widget-user-9") == true, "\(done.location ?? "")")
        let listed = try get(server, "/onramp/v1/buy/user/widget-user-9/transactions", "pageSize=10")
        #expect(listed.body["transactions"]?.arrayValue?.count == 1)
    }

    /// §4.7: the API reference's `startDate`/`endDate` filter; a parameter the API does not have is a
    /// 400 (it used to be ignored, and every row came back).
    @Test func transactionFiltersInBothSpellingsAndNoneIgnored() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let path = "/onramp/v1/buy/transactions"
        #expect(try get(server, path, "startDate=2099-01-01").body["transactions"]?.arrayValue?.count == 0)
        #expect(try get(server, path, "endDate=2000-01-01").body["transactions"]?.arrayValue?.count == 0)
        #expect(try get(server, path, "startDate=2000-01-01&pageSize=5").body["transactions"]?.arrayValue?.count == 1)
        let unknown = try get(server, path, "status=ONRAMP_TRANSACTION_STATUS_SUCCESS")
        #expect(unknown.status == 400)
        #expect(unknown.body["errorMessage"]?.stringValue?.contains("status is not a parameter") == true)
        let userPath = "/onramp/v1/buy/user/user-1/transactions"
        #expect(try get(server, userPath, "start_date=2000-01-01").status == 400, "the user listing has no dates")
    }

    /// Buy Config and Buy Options name payment methods as the real service answers them and Coinbase's demo reads
    /// them (onramp-demo-application `app/utils/onrampApi.ts` @114d1e1c, its one stored version:
    /// `ApiPaymentMethodType.id` and `ApiPaymentMethodLimit.id` are "CARD, ACH_BANK_ACCOUNT, APPLE_PAY, etc.",
    /// and `paymentMethodNames` keys `ACH_BANK_ACCOUNT` and `CRYPTO_ACCOUNT`), not in the request spelling this
    /// server answered before (`ACH`, `CRYPTO_WALLET`); the console's availability page and `onramp catalogue`
    /// read the same values. `networks` narrows the assets' networks by name or alias.
    @Test func buyConfigAndOptionsNamePaymentMethodsAsTheServiceDoes() throws {
        let server = try TestServer()
        let config = try get(server, "/onramp/v1/buy/config", "")
        let us = try #require(config.body["countries"]?.arrayValue?.first { $0["id"] == "US" })
        let methods = try #require(us["payment_methods"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        #expect(methods.contains("ACH_BANK_ACCOUNT") && methods.contains("CARD") && !methods.contains("ACH"))
        let options = try get(server, "/onramp/v1/buy/options", "country=US")
        let usd = try #require(options.body["payment_currencies"]?.arrayValue?.first { $0["id"] == "USD" })
        let limited = try #require(usd["limits"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        #expect(limited.contains("ACH_BANK_ACCOUNT") && !limited.contains("ACH"), "\(limited)")
        #expect(
            options.body
                == (try JSONValueEncoder().encode(
                    server.sandbox.application.context.catalogue.buyOptions(country: "US"))))
        let narrowed = try get(server, "/onramp/v1/buy/options", "country=US&networks=base")
        let networks = Set(
            try #require(narrowed.body["purchase_currencies"]?.arrayValue).flatMap {
                $0["networks"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            })
        #expect(networks == ["base"])
    }

    /// §4.8: Buy Quote takes the API reference's camelCase body, and with a destination address answers a
    /// one-click `onramp_url` (cdp-react's `OnrampBuyQuoteResponse.onrampUrl`).
    @Test func buyQuoteInCamelCaseWithAOneClickURL() throws {
        let server = try TestServer()
        let path = "/onramp/v1/buy/quote"
        let snake = try post(
            server, path,
            [
                "purchase_currency": "USDC", "purchase_network": "base", "payment_amount": "25.00",
                "payment_currency": "USD", "payment_method": "CARD", "country": "US", "subdivision": "CA",
            ])
        let camel = try post(
            server, path,
            [
                "purchaseCurrency": "USDC", "purchaseNetwork": "base", "paymentAmount": "25.00",
                "paymentCurrency": "USD", "paymentMethod": "CARD", "country": "US", "subdivision": "CA",
                "destinationAddress": .string(Self.address),
            ])
        #expect(snake.status == 200 && camel.status == 200, "\(camel.body)")
        #expect(snake.body["payment_total"] == camel.body["payment_total"])
        #expect(snake.body["onramp_url"] == nil)
        let url = try #require(camel.body["onramp_url"]?.stringValue)
        let preview = try HostedOnrampBrowser(port: server.port).open(url)
        #expect(preview.status == 200)
        #expect(preview.text.contains("<h1>Buy 24.36 USDC</h1>"), "the one-click URL opens on this quote's preview")
    }

    /// §4.9: subscription answers carry `metadata.secret` (the SDK's backward-compatible copy), and the
    /// older `labelKey`/`labelValue` body works.
    @Test func subscriptionsCarryMetadataSecretAndTakeTheOlderLabelBody() throws {
        let server = try TestServer()
        let created = try post(
            server, "/platform/v2/data/webhooks/subscriptions",
            [
                "description": "old docs\nsecond line", "eventTypes": ["onramp.transaction.success"], "isEnabled": true,
                "target": ["url": "https://partner.example.com/webhooks", "method": "POST"],
                "labelKey": "project", "labelValue": .string(server.projectId), "metadata": ["team": "payments"],
            ])
        #expect(created.status == 201, "\(created.body)")
        #expect(created.body["labels"]?["project"] == .string(server.projectId))
        let secret = try #require(created.body["secret"]?.stringValue)
        #expect(created.body["metadata"]?["secret"] == .string(secret))
        #expect(created.body["metadata"]?["team"] == "payments")
        #expect(created.body["description"] == "old docs\nsecond line", "free text keeps its line breaks")
    }

    /// §4.10: an App2App session's `quote` has the same shape as the hosted session's (cdp-sdk
    /// `OnrampQuote`: amounts as strings, the fees listed, the crypto value of one unit of fiat).
    @Test func theApp2AppSessionQuoteIsAnOnrampQuote() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let quote = try #require(try device.createSession(challenge: text).body["quote"])
        let hosted = try post(
            server, "/platform/v2/onramp/sessions",
            [
                "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": .string(Self.address),
                "paymentAmount": "25.00", "paymentCurrency": "USD", "paymentMethod": "CARD", "country": "US",
                "subdivision": "CA",
            ])
        #expect(quote == hosted.body["quote"], "\(quote)")
        #expect(quote["paymentTotal"] == "25.00")
        #expect(quote["exchangeRate"] == "1.000000")
        #expect(
            quote["fees"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == [
                "FEE_TYPE_EXCHANGE", "FEE_TYPE_NETWORK",
            ])
    }

    /// §4.12: CDP's standard `X-Idempotency-Key` is honoured like the demo's `Idempotency-Key`.
    @Test func xIdempotencyKeyGivesTheSameChallenge() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        func challenge() throws -> String? {
            try server.request(
                "POST", "/platform/v2/onramp/mobile/challenges", json: device.purchase(),
                headers: [("X-Idempotency-Key", "order-77")]
            ).body["challenge"]?.stringValue
        }
        let first = try challenge()
        #expect(first != nil)
        #expect(try challenge() == first)
    }

    /// Each CDP family's idempotency key is held to its bounds before anything runs: App2App's challenge takes 1
    /// to 255 bytes (a 256-byte key is refused, a 255-byte one taken), the Headless API's order 1 to 128 visible
    /// characters (129 bytes, or a control character, is refused, naming `X-Idempotency-Key`).
    @Test func idempotencyKeysAreHeldToTheirFamilysBounds() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        func challenge(_ key: String) throws -> (status: Int, body: JSONValue) {
            let response = try server.request(
                "POST", "/platform/v2/onramp/mobile/challenges", json: device.purchase(),
                headers: [("Idempotency-Key", key)])
            return (response.status, response.body)
        }
        let tooLong = try challenge(String(repeating: "k", count: 256))
        #expect(tooLong.status == 400 && tooLong.body["errorMessage"] == "Idempotency-Key must be 1 to 255 bytes.")
        #expect(try challenge(String(repeating: "k", count: 255)).status == 201)
        let path = "/platform/v2/onramp/orders"
        func order(_ key: String) throws -> (status: Int, body: JSONValue) {
            let response = try server.request(
                "POST", path, json: HeadlessOnrampTests.orderBody(),
                headers: [("Authorization", "Bearer \(try server.jwt("POST", path))"), ("X-Idempotency-Key", key)])
            return (response.status, response.body)
        }
        for key in [String(repeating: "k", count: 129), "order\u{7}1"] {
            let refused = try order(key)
            #expect(
                refused.status == 400
                    && refused.body["errorMessage"] == "X-Idempotency-Key must be 1 to 128 visible characters.",
                "\(refused.body)")
        }
        #expect(try order(String(repeating: "k", count: 128)).status == 201)
    }
}

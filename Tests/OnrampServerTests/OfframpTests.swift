import Foundation
import HTTPServer
import OnrampCore
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// The offramp sandbox on a real port: a `/onramp/v1/token` opens the sell page (cbpay-js
/// `generateOffRampURL`'s `/v3/sell/input`), the user cashes out, the sell waits at a deposit address
/// until the simulator receives the crypto, and the sell transactions API answers what Coinbase's demo
/// reads (`utils/fetchOfframpTransaction.ts`, `app/offramp-send.tsx`: `to_address`, `sell_amount.value`,
/// `asset`, `network`), with signed `offramp.transaction.*` webhooks.
@Suite(.serialized, .blocking) struct OfframpTests {
    static let address = "0x52908400098527886E0F7030069857D2E4169EE7"
    static let redirect = "https://\(TestServer.redirectHost)/offramp-send?partnerUserRef=seller-1"

    func jwtRequest(_ server: TestServer, _ method: String, _ path: String, query: String = "", json: JSONValue? = nil)
        throws -> (status: Int, body: JSONValue)
    {
        let response = try server.request(
            method, path + (query.isEmpty ? "" : "?" + query), json: json,
            headers: [("Authorization", "Bearer \(try server.jwt(method, path))")])
        return (response.status, response.body)
    }

    /// A sell link for `ref`, as the demo builds it (`utils/createOfframpSession.ts`).
    func link(_ server: TestServer, ref: String) throws -> String {
        let token = try #require(
            try jwtRequest(
                server, "POST", "/onramp/v1/token",
                json: ["addresses": [["address": .string(Self.address), "blockchains": ["base"]]], "assets": ["USDC"]]
            ).body["token"]?.stringValue)
        let redirect = PercentEncoding.encode(Self.redirect)
        return "/v3/sell/input?sessionToken=\(token)&partnerUserRef=\(ref)&redirectUrl=\(redirect)"
            + "&defaultAsset=USDC&defaultNetwork=base&presetCryptoAmount=10"
    }

    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Opens the link, previews 10 USDC to the fiat wallet, and cashes out.
    func cashOut(_ server: TestServer, ref: String) throws -> RawHTTPClient.Response {
        let page = try RawHTTPClient(port: server.port).request("GET", try link(server, ref: ref))
        #expect(page.status == 200)
        #expect(page.text.contains("USDC on Base"))
        let token = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        func post(_ action: String) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: server.port).request(
                "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(
                    "sessionToken=\(token)&pageSecret=\(secret)&choice=0&sellAmount=10&cashoutMethod=FIAT_WALLET&fiatCurrency=USD&action=\(action)"
                        .utf8))
        }
        let preview = try post("preview")
        #expect(preview.status == 200)
        #expect(preview.text.contains("<h1>Sell 10 USDC</h1>"))
        #expect(preview.text.contains("10.00 USD"))
        return try post("cashout")
    }

    func transactions(_ server: TestServer, _ ref: String) throws -> JSONValue {
        try jwtRequest(server, "GET", "/onramp/v1/sell/user/\(ref)/transactions").body
    }

    @Test(arguments: DatabaseDriver.all)
    func aSellWaitsAtItsDepositAddressThenSucceedsWithSignedWebhooks(driver: DatabaseDriver) throws {
        let server = try TestServer(settlementDelay: 0.05, driver: driver)
        let receiver = try WebhookReceiver()
        let subscription = try jwtRequest(
            server, "POST", "/platform/v2/data/webhooks/subscriptions",
            json: [
                "eventTypes": [
                    "offramp.transaction.created", "offramp.transaction.updated", "offramp.transaction.success",
                ],
                "isEnabled": true, "target": ["url": .string(receiver.url)],
            ])
        let secret = try #require(subscription.body["secret"]?.stringValue)
        let done = try cashOut(server, ref: "seller-1")
        #expect(done.status == 303)
        #expect(done.headers["location"] == Self.redirect)

        // The demo reads the newest sell: where to send what.
        var sell = try #require(try transactions(server, "seller-1")["transactions"]?.arrayValue?.first)
        #expect(sell["asset"] == "USDC" && sell["network"] == "base")
        #expect(sell["sell_amount"]?["value"] == "10")
        #expect(sell["from_address"] == .string(Self.address))
        let toAddress = try #require(sell["to_address"]?.stringValue)
        #expect(toAddress.hasPrefix("0x") && toAddress.count == 42)
        #expect(sell["total"]?["value"] == "10.00", "the fiat wallet takes no fee")
        for _ in 0..<1500 where sell["status"] != "TRANSACTION_STATUS_SUCCESS" {
            Thread.sleep(forTimeInterval: 0.02)
            sell = try #require(try transactions(server, "seller-1")["transactions"]?.arrayValue?.first)
        }
        #expect(sell["status"] == "TRANSACTION_STATUS_SUCCESS")
        #expect(sell["tx_hash"]?.stringValue?.hasPrefix("0x") == true)
        #expect(try transactions(server, "seller-1")["total_count"] == "1")

        #expect(receiver.wait { $0.count >= 3 })
        let bodies = receiver.deliveries.compactMap { try? JSONParser().parse($0.body) }
        #expect(
            bodies.compactMap { $0["eventType"]?.stringValue }.sorted() == [
                "offramp.transaction.created", "offramp.transaction.success", "offramp.transaction.updated",
            ])
        #expect(bodies.allSatisfy { $0["toAddress"] == .string(toAddress) && $0["sellAmount"]?["value"] == "10" })
        // cdp-sdk 1.51.0 `OfframpTransactionPayload`'s `minimumTotal` and `exchangeRate` (MoneyAmounts).
        #expect(
            bodies.allSatisfy { $0["minimumTotal"]?["value"] == "10.00" && $0["minimumTotal"]?["currency"] == "USD" })
        #expect(bodies.allSatisfy { $0["exchangeRate"]?["currency"] == "USD" && $0["exchangeRate"] == $0["unitPrice"] })
        let parsed = try CDPPayloadModels.parse(bodies.map { ("OfframpTransactionPayload", $0) })
        #expect(parsed.count == 3 && parsed.allSatisfy { $0.error == nil }, "\(parsed)")
        #expect(parsed.allSatisfy { $0.parsed?["minimumTotal"]?["value"] == "10.00" })
        let checks = try PythonVerifier.verify(receiver.deliveries.map { ("cdp", secret, $0) })
        #expect(checks.allSatisfy { $0.ok }, "\(checks)")
    }

    @Test func aFailedSendAndAMissedWindowEndTheSell() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, settlementDelay: 0.05)
        #expect(try cashOut(server, ref: "seller-2-fail-send").status == 303)
        clock.advance(by: 1)
        var failed = try transactions(server, "seller-2-fail-send")["transactions"]?.arrayValue?.first
        for _ in 0..<1500 where failed?["status"] == "TRANSACTION_STATUS_STARTED" {
            Thread.sleep(forTimeInterval: 0.02)
            failed = try transactions(server, "seller-2-fail-send")["transactions"]?.arrayValue?.first
        }
        #expect(failed?["status"] == "TRANSACTION_STATUS_FAILED")
        #expect(try cashOut(server, ref: "seller-3-no-send").status == 303)
        clock.advance(by: 29 * 60)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(
            try transactions(server, "seller-3-no-send")["transactions"]?.arrayValue?.first?["status"]
                == "TRANSACTION_STATUS_STARTED")
        clock.advance(by: 2 * 60)
        var expired = try transactions(server, "seller-3-no-send")["transactions"]?.arrayValue?.first
        for _ in 0..<1500 where expired?["status"] == "TRANSACTION_STATUS_STARTED" {
            Thread.sleep(forTimeInterval: 0.02)
            expired = try transactions(server, "seller-3-no-send")["transactions"]?.arrayValue?.first
        }
        #expect(expired?["status"] == "TRANSACTION_STATUS_EXPIRED")
    }

    @Test func theSellLinkIsSingleUseAndCancellingSellsNothing() throws {
        let server = try TestServer()
        let url = try link(server, ref: "seller-4")
        let page = try RawHTTPClient(port: server.port).request("GET", url)
        #expect(page.status == 200)
        #expect(try RawHTTPClient(port: server.port).request("GET", url).status == 410)
        let token = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        let cancelled = try RawHTTPClient(port: server.port).request(
            "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("sessionToken=\(token)&pageSecret=\(secret)&action=cancel".utf8))
        #expect(cancelled.status == 303 && cancelled.headers["location"] == Self.redirect)
        #expect(try server.count("SELECT COUNT(*) AS n FROM offramp_transactions") == 0)
        // A link without a redirect, or one to a host off the allowlist, opens nothing.
        let bare = try link(server, ref: "seller-5").replacingOccurrences(of: "&redirectUrl=", with: "&x=")
        #expect(try RawHTTPClient(port: server.port).request("GET", bare).status == 400)
    }

    /// A token opens the buy page or the sell page, and the other page then refuses it: a purchase page
    /// cannot be posted as a sell (it has no user or redirect), nor a sell page as a purchase.
    @Test func aTokenOpenedOnOnePageCannotBeFinishedOnTheOther() throws {
        let server = try TestServer()
        func form(_ path: String, _ fields: String) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: server.port).request(
                "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(fields.utf8)
            )
        }
        let sellURL = try link(server, ref: "seller-6")
        let buyURL = sellURL.replacingOccurrences(of: "/v3/sell/input", with: "/buy/select-asset")
        let bought = try RawHTTPClient(port: server.port).request("GET", buyURL)
        #expect(bought.status == 200)
        let buyToken = try #require(Self.hidden("sessionToken", in: bought.text))
        let buySecret = try #require(Self.hidden("pageSecret", in: bought.text))
        let asSell = try form(
            "/v3/sell/input",
            "sessionToken=\(buyToken)&pageSecret=\(buySecret)&choice=0&sellAmount=10&cashoutMethod=FIAT_WALLET&action=cashout"
        )
        #expect(asSell.status == 404)
        let sold = try RawHTTPClient(port: server.port).request("GET", try link(server, ref: "seller-7"))
        let sellToken = try #require(Self.hidden("sessionToken", in: sold.text))
        let sellSecret = try #require(Self.hidden("pageSecret", in: sold.text))
        #expect(
            try form("/buy/select-asset", "sessionToken=\(sellToken)&pageSecret=\(sellSecret)&action=cancel").status
                == 404)
        #expect(try server.count("SELECT COUNT(*) AS n FROM offramp_transactions") == 0)
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
    }

    /// Pressing "Cash out now" twice sells once and goes back to the app both times.
    @Test func aSecondCashOutSellsNothingMore() throws {
        let server = try TestServer()
        let page = try RawHTTPClient(port: server.port).request("GET", try link(server, ref: "seller-8"))
        let token = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        for _ in 0..<2 {
            let answer = try RawHTTPClient(port: server.port).request(
                "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(
                    "sessionToken=\(token)&pageSecret=\(secret)&choice=0&sellAmount=10&cashoutMethod=FIAT_WALLET&action=cashout"
                        .utf8))
            #expect(answer.status == 303 && answer.headers["location"] == Self.redirect)
        }
        #expect(try server.count("SELECT COUNT(*) AS n FROM offramp_transactions") == 1)
    }

    @Test func sellQuotesInEitherSpellingAndListsRefuseUnknownFilters() throws {
        let server = try TestServer()
        let camel = try jwtRequest(
            server, "POST", "/onramp/v1/sell/quote",
            json: [
                "sellCurrency": "USDC", "sellAmount": "100", "cashoutCurrency": "USD",
                "paymentMethod": "ACH_BANK_ACCOUNT",
                "country": "US", "subdivision": "CA",
            ])
        #expect(camel.status == 200, "\(camel.body)")
        #expect(camel.body["cashout_subtotal"]?["value"] == "100.00")
        #expect(camel.body["coinbase_fee"]?["value"] == "1.00", "ACH: 1 %")
        #expect(camel.body["cashout_total"]?["value"] == "99.00")
        #expect(camel.body["offramp_url"] == nil, "no one-click URL without the user's address")
        let elsewhere = try jwtRequest(
            server, "POST", "/onramp/v1/sell/quote",
            json: [
                "sellCurrency": "USDC", "sellNetwork": "nowhere", "sellAmount": "100", "cashoutCurrency": "USD",
                "paymentMethod": "ACH_BANK_ACCOUNT", "country": "US",
            ])
        #expect(elsewhere.status == 400 && elsewhere.body["errorType"] == "invalid_request", "\(elsewhere.body)")
        let snake = try jwtRequest(
            server, "POST", "/onramp/v1/sell/quote",
            json: [
                "sell_currency": "USDC", "sell_amount": "100", "cashout_currency": "USD",
                "payment_method": "ACH_BANK_ACCOUNT",
                "country": "US",
            ])
        #expect(snake.body["cashout_total"] == camel.body["cashout_total"])
        let card = try jwtRequest(
            server, "POST", "/onramp/v1/sell/quote",
            json: [
                "sellCurrency": "USDC", "sellAmount": "100", "cashoutCurrency": "USD", "paymentMethod": "CARD",
                "country": "US",
            ])
        // Every documented method is quoted (CARD on the card fees); one outside them is refused.
        #expect(card.status == 200 && card.body["coinbase_fee"]?["value"] == "2.50", "\(card.body)")
        for method in ["UNSPECIFIED", "GUEST_CHECKOUT_APPLE_PAY", "RTP", "CRYPTO_ACCOUNT", "SEPA_BANK_ACCOUNT"] {
            let quoted = try jwtRequest(
                server, "POST", "/onramp/v1/sell/quote",
                json: [
                    "sellCurrency": "USDC", "sellAmount": "100", "cashoutCurrency": "USD",
                    "paymentMethod": .string(method), "country": "US",
                ])
            #expect(quoted.status == 200, "\(method): \(quoted.body)")
        }
        let cheque = try jwtRequest(
            server, "POST", "/onramp/v1/sell/quote",
            json: [
                "sellCurrency": "USDC", "sellAmount": "100", "cashoutCurrency": "USD", "paymentMethod": "CHEQUE",
                "country": "US",
            ])
        #expect(cheque.status == 400 && cheque.body["errorType"] == "invalid_request")
        // The cash-out method's currencies and limits hold (ACH: USD, 5 to 25,000).
        for (amount, currency) in [("100", "EUR"), ("30000", "USD"), ("1", "USD")] {
            let refused = try jwtRequest(
                server, "POST", "/onramp/v1/sell/quote",
                json: [
                    "sellCurrency": "USDC", "sellAmount": .string(amount), "cashoutCurrency": .string(currency),
                    "paymentMethod": "ACH_BANK_ACCOUNT", "country": "US",
                ])
            #expect(refused.status == 400, "\(amount) \(currency): \(refused.body)")
        }
        let unknown = try jwtRequest(server, "GET", "/onramp/v1/sell/transactions", query: "status=x")
        #expect(unknown.status == 400)
        #expect(
            try jwtRequest(server, "GET", "/onramp/v1/sell/transactions", query: "startDate=2099-01-01").body[
                "transactions"] == .array([]))
    }

    /// The guide's one-click sell: a quote with `source_address`, `redirect_url` and `partner_user_ref`
    /// carries an `offramp_url` whose page is preset to the quote and cashes it out.
    @Test func aSellQuoteWithTheUsersAddressCarriesAOneClickOfframpURL() throws {
        let server = try TestServer()
        var body: [(String, JSONValue)] = [
            ("sell_currency", "USDC"), ("sell_network", "base"), ("sell_amount", "10"), ("cashout_currency", "USD"),
            ("payment_method", "FIAT_WALLET"), ("country", "US"), ("source_address", .string(Self.address)),
            ("redirect_url", .string(Self.redirect)), ("partner_user_ref", "seller-9"),
        ]
        let quoted = try jwtRequest(server, "POST", "/onramp/v1/sell/quote", json: .object(body))
        #expect(quoted.status == 200, "\(quoted.body)")
        let link = try #require(quoted.body["offramp_url"]?.stringValue)
        let url = try #require(URLComponents(string: link))
        #expect(url.path == "/v3/sell/input")
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["redirectUrl"] == Self.redirect && query["partnerUserRef"] == "seller-9")
        #expect(query["quoteId"] == quoted.body["quote_id"]?.stringValue)
        #expect(query["defaultAsset"] == "USDC" && query["defaultNetwork"] == "base")
        let page = try RawHTTPClient(port: server.port).request("GET", url.path + "?" + (url.percentEncodedQuery ?? ""))
        #expect(page.status == 200, "\(page.text)")
        #expect(page.text.contains("USDC on Base") && page.text.contains("value=\"10\""))
        let token = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        let cashedOut = try RawHTTPClient(port: server.port).request(
            "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(
                "sessionToken=\(token)&pageSecret=\(secret)&choice=0&sellAmount=10&cashoutMethod=FIAT_WALLET&action=cashout"
                    .utf8))
        #expect(cashedOut.status == 303 && cashedOut.headers["location"] == Self.redirect)
        #expect(try transactions(server, "seller-9")["transactions"]?.arrayValue?.count == 1)

        // Coinbase's demo application names the user `partnerUserId`, camelCase throughout.
        let demo = try jwtRequest(
            server, "POST", "/onramp/v1/sell/quote",
            json: [
                "sellCurrency": "USDC", "sellNetwork": "base", "sellAmount": "10", "cashoutCurrency": "USD",
                "paymentMethod": "FIAT_WALLET", "country": "US", "sourceAddress": .string(Self.address),
                "redirectUrl": .string(Self.redirect), "partnerUserId": "demo-user-7", "clientIp": "203.0.113.7",
            ])
        let demoLink = try #require(demo.body["offramp_url"]?.stringValue, "\(demo.body)")
        #expect(demoLink.contains("partnerUserRef=demo-user-7"))
        // Each part is checked before a token is made; without all three there is no URL.
        let tokens = try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions")
        for (name, value) in [
            ("redirect_url", "https://elsewhere.example/x"), ("source_address", "0x1234"), ("sell_network", "solana"),
        ] {
            var bad = body
            bad.removeAll { $0.0 == name }
            bad.append((name, .string(value)))
            let refused = try jwtRequest(server, "POST", "/onramp/v1/sell/quote", json: .object(bad))
            #expect(refused.status == 400 && refused.body["errorType"] == "invalid_request", "\(name): \(refused.body)")
        }
        body.removeAll { $0.0 == "partner_user_ref" }
        let partial = try jwtRequest(server, "POST", "/onramp/v1/sell/quote", json: .object(body))
        #expect(partial.status == 200 && partial.body["offramp_url"] == nil)
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions") == tokens)
    }

    /// The sell URL's `presetFiatAmount` presets the crypto worth that much (rounded up to the asset's decimals)
    /// and `disableEdit=true` fixes what the URL presets: the page offers nothing else and a form that changes it
    /// is refused. The page lists only what can be sold here, in the order the form's `choice` indexes (a wallet
    /// on Bitcoin, which no sell receives on, is not offered).
    @Test func presetFiatAmountAndDisableEditFixTheSell() throws {
        let server = try TestServer()
        let token = try #require(
            try jwtRequest(
                server, "POST", "/onramp/v1/token",
                json: [
                    "addresses": [
                        ["address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "blockchains": ["bitcoin"]],
                        ["address": .string(Self.address), "blockchains": ["base"]],
                    ],
                    "assets": ["BTC", "ETH"],
                ]
            ).body["token"]?.stringValue)
        let base =
            "/v3/sell/input?sessionToken=\(token)&partnerUserRef=seller-fiat&redirectUrl=\(PercentEncoding.encode(Self.redirect))"
        let bad = try RawHTTPClient(port: server.port).request("GET", base + "&presetFiatAmount=lots")
        #expect(bad.status == 400 && bad.text.contains("presetFiatAmount"), "\(bad.text)")
        let page = try RawHTTPClient(port: server.port).request(
            "GET",
            base
                + "&defaultAsset=ETH&defaultNetwork=base&presetFiatAmount=25&disableEdit=true&defaultCashoutMethod=ACH_BANK_ACCOUNT"
        )
        #expect(page.status == 200, "\(page.text)")
        // 25 USD of ETH at 3,000: 0.008333… rounded up at 18 places.
        #expect(page.text.contains("value=\"0.008333333333333334\" readonly"), "\(page.text)")
        #expect(page.text.contains("ETH on Base") && !page.text.contains("BTC on"))
        #expect(page.text.contains("value=\"ACH_BANK_ACCOUNT\" selected") && !page.text.contains("FIAT_WALLET"))
        let pageToken = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        func post(_ fields: String) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: server.port).request(
                "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("sessionToken=\(pageToken)&pageSecret=\(secret)&choice=0&fiatCurrency=USD&\(fields)".utf8))
        }
        let edited = try post("sellAmount=1&cashoutMethod=ACH_BANK_ACCOUNT&action=preview")
        #expect(edited.status == 400 && edited.text.contains("cannot be changed"), "\(edited.text)")
        let otherMethod = try post("sellAmount=0.008333333333333334&cashoutMethod=PAYPAL&action=preview")
        #expect(otherMethod.status == 400)
        let preview = try post("sellAmount=0.008333333333333334&cashoutMethod=ACH_BANK_ACCOUNT&action=preview")
        #expect(preview.status == 200 && preview.text.contains("25.00 USD"), "\(preview.text)")
        let done = try post("sellAmount=0.008333333333333334&cashoutMethod=ACH_BANK_ACCOUNT&action=cashout")
        #expect(done.status == 303, "\(done.text)")
        let sells = try transactions(server, "seller-fiat")["transactions"]?.arrayValue ?? []
        #expect(sells.count == 1)
        #expect(sells.first?["asset"] == "ETH" && sells.first?["network"] == "base", "\(sells)")
        #expect(sells.first?["payment_method"] == "ACH_BANK_ACCOUNT")
    }

    /// A one-click quote for a method only quoted (CARD) opens a sell page that refuses it, says what to quote
    /// instead and spends nothing; one for `CRYPTO_ACCOUNT` cashes out to the user's crypto balance.
    @Test func theSellPageRefusesAQuoteItCannotPayOutAndTakesTheCryptoAccount() throws {
        let server = try TestServer()
        func oneClick(_ method: String) throws -> URLComponents {
            let quoted = try jwtRequest(
                server, "POST", "/onramp/v1/sell/quote",
                json: [
                    "sellCurrency": "USDC", "sellNetwork": "base", "sellAmount": "10", "cashoutCurrency": "USD",
                    "paymentMethod": .string(method), "country": "US", "sourceAddress": .string(Self.address),
                    "redirectUrl": .string(Self.redirect), "partnerUserId": "seller-card",
                ])
            return try #require(URLComponents(string: quoted.body["offramp_url"]?.stringValue ?? ""), "\(quoted.body)")
        }
        let card = try oneClick("CARD")
        let refused = try RawHTTPClient(port: server.port).request(
            "GET", card.path + "?" + (card.percentEncodedQuery ?? ""))
        #expect(refused.status == 400 && refused.text.contains("cannot pay out to CARD"), "\(refused.text)")
        #expect(refused.text.contains("CRYPTO_ACCOUNT"))
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions WHERE opened_at IS NOT NULL") == 0)

        let crypto = try oneClick("CRYPTO_ACCOUNT")
        let page = try RawHTTPClient(port: server.port).request(
            "GET", crypto.path + "?" + (crypto.percentEncodedQuery ?? ""))
        #expect(page.status == 200 && page.text.contains("value=\"CRYPTO_ACCOUNT\" selected"), "\(page.text)")
        let token = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        let cashedOut = try RawHTTPClient(port: server.port).request(
            "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(
                "sessionToken=\(token)&pageSecret=\(secret)&choice=0&sellAmount=10&cashoutMethod=CRYPTO_ACCOUNT&action=cashout"
                    .utf8))
        #expect(cashedOut.status == 303 && cashedOut.headers["location"] == Self.redirect, "\(cashedOut.text)")
        let sells = try transactions(server, "seller-card")["transactions"]?.arrayValue ?? []
        #expect(sells.map { $0["payment_method"] } == ["CRYPTO_ACCOUNT"])
    }

    /// A one-click link's user, amount and cash-out are bound to its token: a URL that names another user or
    /// amount is refused before the token is opened, and a form that sells another amount is refused, so no
    /// sell is recorded for anyone but the partner's user (the probe recorded one for `sandbox-mallory`).
    @Test(arguments: DatabaseDriver.all)
    func aOneClickLinksPresetsCannotBeEdited(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let body: JSONValue = [
            "sell_currency": "USDC", "sell_network": "base", "sell_amount": "10", "cashout_currency": "USD",
            "payment_method": "FIAT_WALLET", "country": "US", "source_address": .string(Self.address),
            "redirect_url": .string(Self.redirect), "partner_user_ref": "seller-9",
        ]
        let link = try #require(
            try jwtRequest(server, "POST", "/onramp/v1/sell/quote", json: body).body["offramp_url"]?.stringValue)
        let url = try #require(URLComponents(string: link))
        func open(_ edit: (inout [URLQueryItem]) -> Void) throws -> RawHTTPClient.Response {
            var items = url.queryItems ?? []
            edit(&items)
            var edited = url
            edited.queryItems = items
            return try RawHTTPClient(port: server.port).request(
                "GET", url.path + "?" + (edited.percentEncodedQuery ?? ""))
        }
        func replace(_ name: String, _ value: String) -> (inout [URLQueryItem]) -> Void {
            { items in items = items.map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 } }
        }
        for (name, value) in [("partnerUserRef", "sandbox-mallory"), ("presetCryptoAmount", "1000")] {
            let refused = try open(replace(name, value))
            #expect(refused.status == 400 && refused.text.contains("cannot be changed"), "\(name)")
        }
        let page = try open { _ in }
        #expect(page.status == 200, "the unedited link still opens: \(page.text)")
        let token = try #require(Self.hidden("sessionToken", in: page.text))
        let secret = try #require(Self.hidden("pageSecret", in: page.text))
        func cashOut(_ amount: String) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: server.port).request(
                "POST", "/v3/sell/input", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(
                    "sessionToken=\(token)&pageSecret=\(secret)&choice=0&sellAmount=\(amount)&cashoutMethod=FIAT_WALLET&action=cashout"
                        .utf8))
        }
        #expect(try cashOut("1000").status == 400)
        #expect(try server.count("SELECT COUNT(*) AS n FROM offramp_transactions") == 0)
        #expect(try cashOut("10").status == 303)
        #expect(try transactions(server, "seller-9")["transactions"]?.arrayValue?.count == 1)
    }

    /// Sell Config and Sell Options, as Coinbase's demo application calls them (`app/api/sell-config/route.ts`,
    /// `sell-options/route.ts` at 114d1e1c): the countries with the cash-out methods, and the cash-out currencies'
    /// limits beside the assets a sell can receive (`networks` narrows them; no Bitcoin, which the sandbox cannot
    /// receive on).
    @Test func sellConfigAndOptionsComeFromTheCatalogue() throws {
        let server = try TestServer()
        let config = try jwtRequest(server, "GET", "/onramp/v1/sell/config")
        #expect(config.status == 200)
        let us = try #require(config.body["countries"]?.arrayValue?.first { $0["id"] == "US" })
        #expect(
            us["payment_methods"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                "FIAT_WALLET", "ACH_BANK_ACCOUNT", "PAYPAL", "CRYPTO_ACCOUNT",
            ])
        #expect(us["subdivisions"]?.arrayValue?.isEmpty == false)
        let options = try jwtRequest(server, "GET", "/onramp/v1/sell/options", query: "country=US&subdivision=CA")
        #expect(options.status == 200, "\(options.body)")
        let usd = try #require(options.body["cashout_currencies"]?.arrayValue?.first { $0["id"] == "USD" })
        #expect(usd["limits"]?.arrayValue?.contains { $0["id"] == "FIAT_WALLET" } == true, "\(usd)")
        let sold = options.body["sell_currencies"]?.arrayValue ?? []
        let networks = Set(sold.flatMap { $0["networks"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [] })
        #expect(networks.contains("base") && !networks.contains("bitcoin"), "\(networks)")
        let onBase = try jwtRequest(server, "GET", "/onramp/v1/sell/options", query: "country=US&networks=base")
        let onBaseNetworks = Set(
            (onBase.body["sell_currencies"]?.arrayValue ?? []).flatMap {
                $0["networks"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            })
        #expect(onBaseNetworks == ["base"])
        // Both decode as OnrampCore's types (the console's and `onramp catalogue`'s), limits as decimals.
        let decodedConfig = try JSONDecoder().decode(SellConfig.self, from: Data(config.body.serialized))
        #expect(decodedConfig.countries.count == config.body["countries"]?.arrayValue?.count)
        let decoded = try JSONDecoder().decode(SellOptions.self, from: Data(onBase.body.serialized))
        #expect(decoded.sellCurrencies.allSatisfy { $0.networks.map(\.name) == ["base"] })
        #expect(decoded.cashoutCurrencies.first { $0.id == "USD" }?.limits.allSatisfy { $0.min < $0.max } == true)
        let unknown = try jwtRequest(server, "GET", "/onramp/v1/sell/options", query: "country=ZZ")
        #expect(unknown.status == 400 && unknown.body["errorType"] == "invalid_request")
    }
}

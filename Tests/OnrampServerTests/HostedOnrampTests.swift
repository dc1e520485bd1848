import Foundation
import HTTPServer
import OnrampCore
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// The hosted onramp on a real port: `POST /onramp/v1/token` and `POST /platform/v2/onramp/sessions`
/// with a CDP JWT, the single-use page at `/buy/select-asset`, and the transaction it creates.
@Suite(.serialized, .blocking) struct HostedOnrampTests {
    static let evmAddress = "0x52908400098527886E0F7030069857D2E4169EE7"
    static let solanaAddress = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"
    static let redirect = "https://\(TestServer.redirectHost)/back"

    func post(_ server: TestServer, _ path: String, _ body: JSONValue) throws -> (status: Int, body: JSONValue) {
        let response = try server.request(
            "POST", path, json: body, headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        return (response.status, response.body)
    }

    func token(_ server: TestServer, _ body: JSONValue? = nil) throws -> String {
        let response = try post(
            server, "/onramp/v1/token",
            body ?? [
                "addresses": [
                    ["address": .string(Self.evmAddress), "blockchains": ["base", "ethereum"]],
                    ["address": .string(Self.solanaAddress), "blockchains": ["solana"]],
                ],
                "assets": ["USDC", "ETH"],
            ])
        #expect(response.status == 200)
        #expect(response.body["channel_id"]?.stringValue?.isEmpty == false)
        return try #require(response.body["token"]?.stringValue)
    }

    @Test(arguments: DatabaseDriver.all)
    func aTokenPurchaseSettlesAsAHostedTransaction(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let token = try token(server)
        #expect(token.count == 43)
        let browser = HostedOnrampBrowser(port: server.port)
        // Every preset names one combination and an amount: the page opens on the preview.
        let url =
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(token)&defaultAsset=USDC"
            + "&defaultNetwork=base&presetFiatAmount=25.00&fiatCurrency=USD&partnerUserId=hosted-user"
            + "&redirectUrl=\(PercentEncoding.encode(Self.redirect))"
        let preview = try browser.open(url)
        #expect(preview.status == 200)
        #expect(preview.text.contains("<h1>Buy 24.36 USDC</h1>"))
        #expect(preview.text.contains("25.00 USD"))
        #expect(preview.text.contains("Payment method: Card."))
        let done = try browser.submit(preview, action: "confirm")
        #expect(done.status == 303)
        #expect(done.location == "\(Self.redirect)?status=success&partnerUserRef=hosted-user")

        let path = "/onramp/v1/buy/user/hosted-user/transactions"
        var settled: JSONValue?
        for _ in 0..<1500 where settled == nil {  // up to 30 s on a loaded machine
            let response = try server.request(
                "GET", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
            if let first = response.body["transactions"]?.arrayValue?.first,
                first["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS"
            {
                settled = first
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        let transaction = try #require(settled)
        #expect(transaction["wallet_address"] == .string(Self.evmAddress))
        #expect(transaction["purchase_network"] == "base")
        #expect(transaction["payment_total"]?["value"] == "25.00")
        #expect(transaction["purchase_amount"]?["value"] == "24.36")
        let payload = try server.database.read { connection in
            try connection.query("SELECT payload FROM outbox_events WHERE type = 'onramp.transaction.success'", [])
                .first?.string("payload")
        }
        let event = try JSONParser().parse(try #require(payload))
        #expect(event["isAppToApp"] == false)
        #expect(event["partnerUserRef"] == "hosted-user")

        // Single use: the link does not open twice, and a repeated confirm changes nothing.
        let again = try browser.open(url)
        #expect(again.status == 410)
        #expect(again.text.contains("already used"))
        #expect(try browser.submit(preview, action: "confirm").location?.contains("status=success") == true)
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 1)
    }

    @Test func theSelectStepOffersOnlyTheAllowedCombinationsAndValidatesTheForm() throws {
        let server = try TestServer()
        let token = try token(server)
        let browser = HostedOnrampBrowser(port: server.port)
        let select = try browser.open("http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(token)")
        #expect(select.status == 200)
        #expect(select.text.contains("<h1>Buy crypto</h1>"))
        // USDC and ETH on Base and Ethereum to the EVM address, USDC on Solana; never BTC.
        let options = select.options(of: "choice")
        #expect(options.count == 5)
        #expect(options.contains("USDC on Solana to 7EcDhS…wCFLtV"))
        #expect(!options.contains { $0.hasPrefix("BTC") })

        let badAmount = try browser.submit(select, action: "preview", fields: [("amount", "ten")])
        #expect(badAmount.status == 400)
        #expect(badAmount.text.contains("role=\"alert\""))
        let outOfRange = try browser.submit(select, action: "preview", fields: [("choice", "9"), ("amount", "30")])
        #expect(outOfRange.status == 400)
        #expect(outOfRange.text.contains("Choose what to buy."))
        let tooSmall = try browser.submit(select, action: "confirm", fields: [("amount", "0.01")])
        #expect(tooSmall.status == 400)

        let preview = try browser.submit(select, action: "preview", fields: [("choice", "4"), ("amount", "30")])
        #expect(preview.status == 200)
        #expect(preview.text.contains("USDC"))
        #expect(preview.text.contains("Solana"))
        let change = try browser.submit(preview, action: "change")
        #expect(change.text.contains("value=\"30\""))
        #expect(change.text.contains("<option value=\"4\" selected>"))

        // Without a redirect URL the flow ends on our own page.
        let cancelled = try browser.submit(change, action: "cancel")
        #expect(cancelled.status == 200)
        #expect(cancelled.text.contains("Purchase cancelled"))
        #expect(try browser.submit(preview, action: "confirm").text.contains("Purchase cancelled"))
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
        // A forged page secret gets nothing.
        let forged = try browser.submit(preview, action: "confirm", fields: [("pageSecret", "forged")])
        #expect(forged.status == 404)
    }

    @Test func tokenRequestsAreValidatedInTheCDPErrorShape() throws {
        let server = try TestServer()
        let unauthenticated = try server.request(
            "POST", "/onramp/v1/token", json: ["addresses": [["address": "x", "blockchains": ["base"]]]])
        #expect(unauthenticated.status == 401)
        #expect(unauthenticated.body["errorType"] == "unauthorized")

        let evm = JSONValue.string(Self.evmAddress)
        let onBase: JSONValue = ["address": evm, "blockchains": ["base"]]
        // Each bad body and a phrase its message must contain.
        let cases: [(JSONValue, String)] = [
            (["addresses": []], "addresses must list"),
            (["addresses": [["address": "0x1234", "blockchains": ["base"]]]], "not a valid base address"),
            (["addresses": [["address": evm, "blockchains": ["dogechain"]]]], "Unknown network dogechain"),
            (["addresses": [["address": evm, "blockchains": []]]], "blockchains must list"),
            (["addresses": [onBase], "assets": ["NOPE"]], "Unknown purchase currency NOPE"),
            (["addresses": [onBase], "assets": ["BTC"]], "None of the assets"),
            (["addresses": ["0xabc"]], "must be an {address, blockchains} object"),
            (["addresses": [onBase], "assets": "USDC"], "assets"),
            (["addresses": .array(Array(repeating: onBase, count: 11))], "addresses must list"),
            (["addresses": [onBase], "clientIp": .string(String(repeating: "1", count: 46))], "clientIp"),
        ]
        for (body, phrase) in cases {
            let response = try post(server, "/onramp/v1/token", body)
            #expect(response.status == 400, "\(body)")
            #expect(response.body["errorType"] == "invalid_request", "\(body)")
            let message = response.body["errorMessage"]?.stringValue ?? ""
            #expect(message.contains(phrase), "\(message) should mention \(phrase)")
        }
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions") == 0)
        // The documented clientIp is accepted.
        #expect(try post(server, "/onramp/v1/token", ["addresses": [onBase], "clientIp": "203.0.113.7"]).status == 200)
    }

    @Test func aSecondOpenEndsThePurchaseAndAHeadDoesNotSpendTheToken() throws {
        let server = try TestServer()
        let browser = HostedOnrampBrowser(port: server.port)
        let redirect = PercentEncoding.encode(Self.redirect)
        let url =
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(try token(server))"
            + "&redirectUrl=\(redirect)&partnerUserId=tabs"
        let head = try RawHTTPClient(port: server.port).request(
            "HEAD", String(url.dropFirst("http://127.0.0.1:\(server.port)".count)))
        #expect(head.status == 200)
        let first = try browser.open(url)
        #expect(first.status == 200)
        let second = try browser.open(url)
        #expect(second.status == 410)
        #expect(second.text.contains("status=error&amp;partnerUserRef=tabs"))
        // The first tab can no longer buy: the partner was told "error", so no transaction may follow.
        let late = try browser.submit(first, action: "confirm", fields: [("amount", "20")])
        #expect(late.location == "\(Self.redirect)?status=error&partnerUserRef=tabs")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
    }

    @Test func aCancelAfterTheConfirmReportsTheRecordedSuccess() throws {
        let server = try TestServer()
        let browser = HostedOnrampBrowser(port: server.port)
        // The fragment stays last, after the outcome's query.
        let redirect = PercentEncoding.encode(Self.redirect + "#done")
        let page = try browser.open(
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(try token(server))"
                + "&redirectUrl=\(redirect)&partnerUserId=racer&presetFiatAmount=20&defaultAsset=USDC&defaultNetwork=base"
        )
        let confirmed = try browser.submit(page, action: "confirm")
        #expect(confirmed.location == "\(Self.redirect)?status=success&partnerUserRef=racer#done")
        let cancelled = try browser.submit(page, action: "cancel")
        #expect(cancelled.location == "\(Self.redirect)?status=success&partnerUserRef=racer#done")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 1)
        // A form the page never sends gets an HTML answer, not JSON.
        let fresh = try browser.open(
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(try token(server))")
        let bogus = try browser.submit(fresh, action: "bogus")
        #expect(bogus.status == 400)
        #expect(bogus.text.contains("<!doctype html>"))
    }

    @Test func oneClickNeedsOnlyOneMatchingChoiceAndACryptoAmountWins() throws {
        let server = try TestServer()
        let browser = HostedOnrampBrowser(port: server.port)
        let single = try token(
            server,
            ["addresses": [["address": .string(Self.evmAddress), "blockchains": ["base"]]], "assets": ["USDC"]])
        let preview = try browser.open(
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(single)&presetFiatAmount=25.00")
        #expect(preview.text.contains("<h1>Buy 24.36 USDC</h1>"))
        let both = try browser.open(
            "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken=\(try token(server))"
                + "&defaultAsset=ETH&defaultNetwork=base&presetFiatAmount=25&presetCryptoAmount=0.01")
        #expect(both.hiddenFields.contains { $0 == ("amountKind", "purchase") })
        #expect(both.text.contains("<h1>Buy 0.01 ETH</h1>"))
    }

    @Test func tokensExpireAfterFiveMinutesAndPagesFifteenMinutesAfterOpening() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock)
        let browser = HostedOnrampBrowser(port: server.port)
        let base = "http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken="

        let stale = try token(server)
        clock.advance(by: 5 * 60 + 1)
        #expect(try browser.open(base + stale).status == 410)

        // A redirect off the allowlist is refused without spending the token.
        let fresh = try token(server)
        let refused = try browser.open(base + fresh + "&redirectUrl=https%3A%2F%2Fevil.example.net%2F")
        #expect(refused.status == 400)
        #expect(refused.text.contains("allowlist"))
        let redirect = PercentEncoding.encode(Self.redirect)
        let page = try browser.open(base + fresh + "&redirectUrl=\(redirect)&presetFiatAmount=20")
        #expect(page.status == 200)
        clock.advance(by: 15 * 60 + 1)
        let late = try browser.submit(page, action: "confirm")
        #expect(late.status == 303)
        #expect(late.location == "\(Self.redirect)?status=error")
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
    }

    /// cdp-sdk 1.51.0 `create_onramp_session(x_onramp_partner_id=…)`: an aggregator's session for a registered end
    /// partner gives its transaction, and the transaction's webhooks, that `partnerId`; an unregistered one is
    /// refused and nothing is stored.
    @Test(arguments: DatabaseDriver.all)
    func anAggregatorsSessionScopesItsTransactionToTheEndPartner(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let partnerId = try ProjectProvisioner(database: server.database).addEndPartner(
            name: "Corner Shop", projectId: server.projectId)
        let path = "/platform/v2/onramp/sessions"
        func create(partner: String) throws -> (status: Int, body: JSONValue) {
            let response = try server.request(
                "POST", path,
                json: [
                    "purchaseCurrency": "USDC", "destinationNetwork": "base",
                    "destinationAddress": .string(Self.evmAddress), "paymentAmount": "25.00", "paymentCurrency": "USD",
                    "paymentMethod": "CARD", "country": "US", "subdivision": "CA",
                    "redirectUrl": .string(Self.redirect),
                    "partnerUserRef": "aggregated-user",
                ],
                headers: [
                    ("Authorization", "Bearer \(try server.jwt("POST", path))"), ("X-Onramp-Partner-Id", partner),
                ])
            return (response.status, response.body)
        }
        let refused = try create(partner: "someone-else")
        #expect(refused.status == 400 && refused.body["errorType"] == "invalid_request", "\(refused.body)")
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions") == 0)

        let created = try create(partner: partnerId)
        #expect(created.status == 201, "\(created.body)")
        let url = try #require(created.body["session"]?["onrampUrl"]?.stringValue)
        let browser = HostedOnrampBrowser(port: server.port)
        let done = try browser.submit(try browser.open(url), action: "confirm")
        #expect(done.location?.hasPrefix("\(Self.redirect)?status=success") == true)
        let payload = try #require(
            try server.database.read {
                try $0.query("SELECT payload FROM outbox_events WHERE type = 'onramp.transaction.created'", []).first
                    .map { try JSONParser().parse(try $0.string("payload")) }
            })
        let parsed = try CDPPayloadModels.parse([("OnrampTransactionPayload", payload)])
        #expect(parsed.first?.error == nil, "\(parsed)")
        #expect(parsed.first?.parsed?["partnerId"] == .string(partnerId))
    }

    @Test func platformSessionsReturnAOneClickURLWithAQuote() throws {
        let server = try TestServer()
        let path = "/platform/v2/onramp/sessions"
        let full: JSONValue = [
            "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": .string(Self.evmAddress),
            "paymentAmount": "25.00", "paymentCurrency": "USD", "paymentMethod": "CARD", "country": "US",
            "subdivision": "CA", "redirectUrl": .string(Self.redirect), "partnerUserRef": "sandbox-hosted",
        ]
        let created = try post(server, path, full)
        #expect(created.status == 201)
        let url = try #require(created.body["session"]?["onrampUrl"]?.stringValue)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/buy/select-asset?sessionToken="))
        let quote = try #require(created.body["quote"])
        #expect(quote["paymentTotal"] == "25.00")
        #expect(quote["paymentSubtotal"] == "24.36")
        #expect(quote["purchaseAmount"] == "24.36")
        #expect(quote["destinationNetwork"] == "base")
        #expect(
            quote["fees"]
                == [
                    ["type": "FEE_TYPE_EXCHANGE", "amount": "0.63", "currency": "USD"],
                    ["type": "FEE_TYPE_NETWORK", "amount": "0.01", "currency": "USD"],
                ])

        // One click: the page opens on the preview; the URL's query cannot change the session.
        let browser = HostedOnrampBrowser(port: server.port)
        let preview = try browser.open(url + "&presetFiatAmount=999&redirectUrl=https%3A%2F%2Fevil.example.net%2F")
        #expect(preview.text.contains("<h1>Buy 24.36 USDC</h1>"))
        #expect(preview.text.contains("Sandbox purchase"))
        let done = try browser.submit(preview, action: "confirm")
        #expect(done.location == "\(Self.redirect)?status=success&partnerUserRef=sandbox-hosted")
        // Sandbox: no transaction, no event.
        #expect(try server.count("SELECT COUNT(*) AS n FROM onramp_transactions") == 0)
        #expect(try server.count("SELECT COUNT(*) AS n FROM outbox_events") == 0)

        let basic = try post(
            server, path,
            [
                "purchaseCurrency": "ETH", "destinationNetwork": "ethereum",
                "destinationAddress": .string(Self.evmAddress),
            ])
        #expect(basic.status == 201)
        #expect(basic.body["quote"] == nil)

        func rejected(_ overrides: [(String, JSONValue)]) throws -> JSONValue {
            guard case .object(var members) = full else { return .null }
            members.removeAll { member in overrides.contains { $0.0 == member.0 } }
            let response = try post(server, path, .object(members + overrides))
            #expect(response.status == 400)
            return response.body["errorType"] ?? .null
        }
        #expect(try rejected([("purchaseAmount", "10")]) == "invalid_request")
        #expect(try rejected([("redirectUrl", "https://evil.example.net/")]) == "invalid_request")
        #expect(try rejected([("destinationNetwork", "solana")]) == "invalid_request")
        #expect(try rejected([("paymentMethod", "CHEQUE")]) == "invalid_request")
        #expect(try rejected([("paymentAmount", "1000000")]) == "invalid_request")
        #expect(try rejected([("paymentAmount", .null), ("subdivision", "N-Y")]) == "invalid_request")
        let unauthenticated = try server.request("POST", path, json: full)
        #expect(unauthenticated.status == 401)
    }
}

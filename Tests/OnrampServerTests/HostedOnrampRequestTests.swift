import HTTPServer
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The hosted onramp's bodies are decoded at the edge into the types its service takes: shape,
/// counts and lengths there, the catalogue's checks in the service.
@Suite struct HostedOnrampRequestTests {
    @Test func aTokenRequestKeepsEachDestinationAndTheAssets() throws {
        let request = try HostedTokenRequest(
            [
                "addresses": [
                    ["address": "0xabc", "blockchains": ["base", "ethereum"]],
                    ["address": "So1ana", "blockchains": ["solana"]],
                ],
                "assets": ["USDC"], "clientIp": "203.0.113.7",
            ])
        #expect(
            request.destinations == [
                .init(address: "0xabc", blockchains: ["base", "ethereum"]),
                .init(address: "So1ana", blockchains: ["solana"]),
            ])
        #expect(request.assets == ["USDC"])
        #expect(try HostedTokenRequest(["addresses": [["address": "0xabc", "blockchains": ["base"]]]]).assets == nil)
    }

    static let destination: JSONValue = ["address": "0xabc", "blockchains": ["base"]]
    static let malformedTokenRequests: [(body: JSONValue, param: String)] = [
        (.object([]), "addresses"),
        (.object([("addresses", .array([]))]), "addresses"),
        (.object([("addresses", .array(["0xabc"]))]), "addresses[0]"),
        (
            .object([("addresses", .array([["address": "0xabc", "blockchains": .array([])]]))]),
            "addresses[0].blockchains"
        ),
        (.object([("addresses", .array([["blockchains": ["base"]]]))]), "address"),
        (.object([("addresses", .array(Array(repeating: destination, count: 11)))]), "addresses"),
        (
            .object([("addresses", .array([destination])), ("clientIp", .string(String(repeating: "1", count: 46)))]),
            "clientIp"
        ),
    ]

    @Test(arguments: malformedTokenRequests)
    func aMalformedTokenRequestNamesItsField(body: JSONValue, param: String) {
        #expect(throws: FieldError.self) { try HostedTokenRequest(body) }
        do {
            _ = try HostedTokenRequest(body)
        } catch {
            #expect(error.status == 400)
            #expect(error.param == param)
        }
    }

    @Test func aSessionRequestCarriesItsPresets() throws {
        let request = try HostedSessionRequest(
            [
                "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": "0xabc",
                "paymentAmount": "25.00", "paymentCurrency": "USD", "paymentMethod": "CARD", "country": "US",
                "subdivision": "CA", "redirectUrl": "https://wallet.example.com/done", "partnerUserRef": "user-1",
            ])
        var expected = HostedSessionRequest(
            purchaseCurrency: "USDC", destinationNetwork: "base", destinationAddress: "0xabc")
        expected.paymentAmount = "25.00"
        expected.paymentCurrency = "USD"
        expected.paymentMethod = "CARD"
        expected.country = "US"
        expected.subdivision = "CA"
        expected.redirectUrl = "https://wallet.example.com/done"
        expected.partnerUserRef = "user-1"
        #expect(request == expected)
    }

    @Test func aSessionRequestRefusesAMissingOrOverlongField() {
        #expect(throws: FieldError.self) { try HostedSessionRequest(["purchaseCurrency": "USDC"]) }
        let overlong: JSONValue = [
            "purchaseCurrency": "USDC", "destinationNetwork": "base", "destinationAddress": "0xabc",
            "partnerUserRef": .string(String(repeating: "u", count: 51)),
        ]
        do {
            _ = try HostedSessionRequest(overlong)
            Issue.record("a 51-character partnerUserRef was accepted")
        } catch {
            #expect(error.param == "partnerUserRef")
        }
    }

    @Test func refusalsBecomeTheCDPErrorTheyStandFor() {
        let invalid = HostedOnrampRefusal.invalid(param: "assets", message: "None of the assets is offered.").httpError
        #expect(invalid.status == 400 && invalid.code == "invalid_request" && invalid.param == "assets")
        let gone = HostedOnrampRefusal.unknownProject.httpError
        #expect(gone.status == 403 && gone.code == "forbidden")
    }
}

import Foundation
import OnrampCore
import Testing

@Suite struct BuyOptionsTests {
    let catalogue = Catalogue.standard

    @Test func buyConfigListsCountriesWithMethodIDs() throws {
        let config = catalogue.buyConfig()
        let us = try #require(config.countries.first { $0.id == "US" })
        #expect(us.paymentMethods.map(\.id).contains("ACH_BANK_ACCOUNT"))
        let json = String(decoding: try JSONEncoder().encode(config), as: UTF8.self)
        #expect(json.contains(#""payment_methods":[{"id":"CARD"}"#))
    }

    @Test func buyOptionsCarryLimitsAsDecimalStrings() throws {
        let options = catalogue.buyOptions(country: "US")
        let usd = try #require(options.paymentCurrencies.first { $0.id == "USD" })
        let card = try #require(usd.limits.first { $0.id == "CARD" })
        #expect(card.min.description == "2" && card.max.description == "7500")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(options), as: UTF8.self)
        #expect(json.contains(#""max":"7500","min":"2""#))
        #expect(json.contains(#""chain_id":"8453""#))
        #expect(json.contains("purchase_currencies"))
    }

    @Test func countryRestrictsPaymentMethods() throws {
        let options = catalogue.buyOptions(country: "DE")
        let eur = try #require(options.paymentCurrencies.first { $0.id == "EUR" })
        #expect(!eur.limits.contains { $0.id == "ACH_BANK_ACCOUNT" })
    }

    @Test func networksFilterAcceptsAliases() throws {
        let options = catalogue.buyOptions(networks: ["avalanche"])
        #expect(Set(options.purchaseCurrencies.map(\.symbol)) == ["USDC", "AVAX"])
        let usdc = try #require(options.purchaseCurrencies.first { $0.symbol == "USDC" })
        #expect(usdc.networks.map(\.name) == ["avalanche-c-chain"])
        #expect(usdc.networks.first?.contractAddress == "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E")
    }
}

@Suite struct PhoneNumberTests {
    @Test(arguments: ["+14155550123", "+447911123456", "+4930123456"])
    func acceptsE164(number: String) throws {
        #expect(try PhoneNumber(e164: number).e164 == number)
    }

    @Test(arguments: ["4155550123", "+1 415 555 0123", "+0123456789", "+1234567", "+1234567890123456", "", "+"])
    func refusesOtherForms(number: String) {
        #expect(throws: OnrampError.self) { try PhoneNumber(e164: number) }
    }

    @Test func masksAllButLastFourDigits() throws {
        #expect(try PhoneNumber(e164: "+14155550123").description == "+•••••••0123")
    }

    @Test func decodingValidates() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([PhoneNumber].self, from: Data(#"["12345"]"#.utf8))
        }
    }
}

import Foundation
import OnrampCore
import Testing

@Suite struct CatalogueTests {
    let catalogue = Catalogue.standard

    @Test func standardCatalogueIsValid() throws {
        try catalogue.validate()
    }

    @Test func listsBothContractsNetworkNames() throws {
        let coinbase = [
            "ethereum", "base", "solana", "polygon", "arbitrum", "optimism", "avalanche-c-chain", "bitcoin", "stellar",
        ]
        let stripe = [
            "avalanche", "base", "bitcoin", "ethereum", "optimism", "polygon", "solana", "stellar", "sui", "worldchain",
            "aptos",
        ]
        for name in coinbase + stripe { _ = try catalogue.network(name) }
        #expect(try catalogue.network("avalanche").id == "avalanche-c-chain")
        #expect(try catalogue.network("base").chainID == "8453")
    }

    @Test func hasRealUSDCContracts() throws {
        let usdc = try catalogue.asset("USDC")
        #expect(usdc.decimals == 6)
        #expect(usdc.deployment(on: "ethereum")?.contractAddress == "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
        #expect(usdc.deployment(on: "solana")?.contractAddress == "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
        #expect(usdc.deployment(on: "bitcoin") == nil)
    }

    @Test func coversEmbeddedDestinationCurrencies() throws {
        for code in ["avax", "btc", "eth", "matic", "sol", "usdc", "wld", "xlm"] {
            _ = try catalogue.asset(lowercaseCode: code)
        }
        for code in ["usd", "eur", "gbp"] {
            #expect(try catalogue.fiatCurrency(code).decimals == 2)
        }
    }

    @Test func looksUpAssetsByIDCaseInsensitively() throws {
        let eth = try catalogue.asset("ETH")
        #expect(try catalogue.asset(eth.id.uppercased()).symbol == "ETH")
    }

    @Test func pricesAreExactDecimals() throws {
        #expect(try catalogue.prices.price(of: "ETH", in: "EUR").description == "2760")
        #expect(try catalogue.prices.price(of: "POL", in: "GBP").description == "0.395")
        #expect(throws: OnrampError.self) { try catalogue.prices.price(of: "ETH", in: "JPY") }
    }

    @Test func paymentMethodsHaveLimitsAndFees() throws {
        #expect(try catalogue.paymentMethod(.ach).limit(for: "USD")?.maximum.description == "25000")
        #expect(try catalogue.paymentMethod(.ach).limit(for: "EUR") == nil)
        #expect(catalogue.fees.paymentMethodFee(for: .paypal).fixed.description == "0.3")
        #expect(catalogue.fees.networkFee(for: "ethereum").description == "1")
    }

    @Test func countriesIncludeUSStates() throws {
        let us = try #require(catalogue.country("us"))
        #expect(us.subdivisions.contains("NY") && us.subdivisions.contains("CA") && us.subdivisions.count == 51)
        #expect(catalogue.country("XX") == nil)
    }

    @Test func roundTripsThroughJSON() throws {
        let data = try catalogue.jsonData()
        let loaded = try Catalogue(jsonData: data)
        #expect(loaded == catalogue)
        #expect(String(decoding: data, as: UTF8.self).contains(#""price" : "3000""#))
    }

    @Test func refusesInconsistentJSON() throws {
        var broken = catalogue
        broken.prices.entries.append(.init(asset: "DOGE", currency: "USD", price: DecimalAmount(exactly: 1)))
        let data = try broken.jsonData()
        #expect(throws: OnrampError.self) { try Catalogue(jsonData: data) }
        #expect(throws: OnrampError.self) { try Catalogue(jsonData: Data("{}".utf8)) }
    }

    /// Transactions report `payment_total_usd`, converted through the asset's USD price.
    @Test func refusesAnAssetPricedWithoutUSD() throws {
        var broken = catalogue
        broken.prices.entries.removeAll { $0.asset == "BTC" && $0.currency == "USD" }
        let error = #expect(throws: OnrampError.self) { try broken.validate() }
        #expect(error?.developerMessage.contains("BTC") == true && error?.developerMessage.contains("USD") == true)
    }

    @Test func refusesDuplicateNetworkNames() {
        var networks = catalogue.networks
        networks.append(Network(id: "avalanche", displayName: "Dup", chainID: "", addressFormat: .evm))
        #expect(throws: OnrampError.self) {
            try Catalogue(
                fiatCurrencies: catalogue.fiatCurrencies, networks: networks, assets: catalogue.assets,
                paymentMethods: catalogue.paymentMethods, countries: catalogue.countries, prices: catalogue.prices,
                fees: catalogue.fees)
        }
    }
}

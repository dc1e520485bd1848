import Foundation
import OnrampCore
import Testing

private func amount(_ text: String) throws -> DecimalAmount {
    try DecimalAmount(parsing: text)
}

private func expectCode(_ code: OnrampError.Code, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(code)")
    } catch let error as OnrampError {
        #expect(error.code == code)
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Suite struct App2AppQuoteTests {
    let calculator = QuoteCalculator()

    private func quote(
        _ asset: String, _ network: String, _ amount: App2AppAmount, currency: String = "USD",
        method: PaymentMethodType = .card
    ) throws -> App2AppQuote {
        try calculator.app2AppQuote(
            App2AppQuoteRequest(
                purchaseCurrency: asset, network: network, paymentCurrency: currency, paymentMethod: method,
                amount: amount))
    }

    private func expectInvariant(_ quote: App2AppQuote) {
        #expect(
            quote.paymentTotal.amount
                == quote.paymentSubtotal.amount + quote.coinbaseFee.amount + quote.networkFee.amount)
    }

    @Test func paymentAmountTakesFeesFromTheCryptoSide() throws {
        let quote = try quote("USDC", "base", .payment(amount("100.00")))
        #expect(quote.paymentTotalString == "100.00")
        #expect(quote.coinbaseFeeString == "2.50")
        #expect(quote.networkFeeString == "0.01")
        #expect(quote.paymentSubtotalString == "97.49")
        #expect(quote.purchaseAmount.description == "97.49 USDC")
        #expect(quote.exchangeRate.description == "1 USD")
        #expect(quote.contractAddress == "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")
        expectInvariant(quote)
    }

    @Test func cryptoFromFiatIsRoundedDownToAssetDecimals() throws {
        let quote = try quote("ETH", "ethereum", .payment(amount("100")))
        #expect(quote.paymentSubtotalString == "96.50")
        #expect(quote.networkFeeString == "1.00")
        #expect(quote.purchaseAmount.amount.description == "0.032166666666666666")
        #expect(quote.contractAddress == "")
        expectInvariant(quote)
    }

    @Test func purchaseAmountAddsFeesOnTheFiatSide() throws {
        let quote = try quote("ETH", "base", .purchase(amount("0.01")))
        #expect(quote.purchaseAmount.amount.description == "0.01")
        #expect(quote.paymentSubtotalString == "30.00")
        #expect(quote.coinbaseFeeString == "0.75")
        #expect(quote.paymentTotalString == "30.76")
        expectInvariant(quote)
    }

    @Test func percentageFeeIsRoundedUpToCents() throws {
        let quote = try quote("USDC", "base", .payment(amount("10.01")))
        #expect(quote.coinbaseFeeString == "0.26")
        #expect(quote.paymentSubtotalString == "9.74")
        expectInvariant(quote)
    }

    @Test func fixedFeeIsAddedToPercentage() throws {
        let quote = try quote("USDC", "solana", .payment(amount("50.00")), method: .paypal)
        #expect(quote.coinbaseFeeString == "1.80")
        #expect(quote.paymentSubtotalString == "48.19")
        #expect(quote.purchaseAmount.amount.description == "48.19")
        expectInvariant(quote)
    }

    @Test func otherFiatCurrenciesUseTheirOwnPrices() throws {
        let quote = try quote("ETH", "base", .payment(amount("100.00")), currency: "EUR")
        #expect(quote.exchangeRate.description == "2760 EUR")
        #expect(quote.purchaseAmount.amount.description == "0.035322463768115942")
        expectInvariant(quote)
    }

    @Test func acceptsAssetIDAliasAndNetworkAlias() throws {
        let usdcID = try Catalogue.standard.asset("USDC").id
        #expect(try quote(usdcID, "avalanche", .payment(amount("20"))).asset.symbol == "USDC")
        #expect(try quote("MATIC", "polygon", .payment(amount("20"))).asset.symbol == "POL")
    }

    @Test func tickerIsCaseSensitive() {
        expectCode(.unknownAsset) { _ = try quote("usdc", "base", .payment(amount("20"))) }
    }

    @Test func refusesAssetOffTheNetwork() {
        expectCode(.assetNotOnNetwork) { _ = try quote("BTC", "base", .payment(amount("20"))) }
        expectCode(.unknownNetwork) { _ = try quote("USDC", "solana-mainnet", .payment(amount("20"))) }
    }

    @Test func refusesAmountsWithTooManyPlaces() {
        expectCode(.invalidAmount) { _ = try quote("USDC", "base", .payment(amount("10.001"))) }
        expectCode(.invalidAmount) { _ = try quote("USDC", "base", .purchase(amount("1.0000001"))) }
        expectCode(.invalidAmount) { _ = try quote("USDC", "base", .purchase(amount("0"))) }
    }

    @Test func enforcesPaymentMethodLimits() {
        expectCode(.amountBelowMinimum) { _ = try quote("USDC", "base", .payment(amount("1.99"))) }
        expectCode(.amountAboveMaximum) { _ = try quote("USDC", "base", .payment(amount("7500.01"))) }
        expectCode(.amountAboveMaximum) { _ = try quote("BTC", "bitcoin", .purchase(amount("1"))) }
        expectCode(.unsupportedPaymentMethod) {
            _ = try quote("USDC", "base", .payment(amount("20")), currency: "EUR", method: .ach)
        }
    }

    @Test func limitsAreInclusive() throws {
        #expect(try quote("USDC", "base", .payment(amount("2.00"))).paymentTotalString == "2.00")
        #expect(try quote("USDC", "base", .payment(amount("7500"))).paymentTotalString == "7500.00")
    }

    @Test func refusesAmountThatDoesNotCoverFees() {
        expectCode(.amountTooSmallForFees) { _ = try quote("BTC", "bitcoin", .payment(amount("2.00"))) }
    }

    @Test func parsesExactlyOneAmount() throws {
        #expect(try App2AppAmount.parse(paymentAmount: "25.00", purchaseAmount: nil) == .payment(amount("25")))
        #expect(try App2AppAmount.parse(paymentAmount: nil, purchaseAmount: "0.01") == .purchase(amount("0.01")))
        expectCode(.amountChoiceInvalid) { _ = try App2AppAmount.parse(paymentAmount: "1", purchaseAmount: "1") }
        expectCode(.amountChoiceInvalid) { _ = try App2AppAmount.parse(paymentAmount: nil, purchaseAmount: nil) }
        expectCode(.invalidAmount) { _ = try App2AppAmount.parse(paymentAmount: "1e2", purchaseAmount: nil) }
    }
}

@Suite struct EmbeddedQuoteTests {
    let calculator = QuoteCalculator()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    @Test func sourceAmountAddsFeesOnTop() throws {
        let quote = try calculator.embeddedQuote(
            EmbeddedQuoteRequest(
                sourceCurrency: "usd", destinationCurrency: "usdc", destinationNetwork: "solana",
                amount: .source(amount("50.00"))), clock: clock)
        #expect(quote.destinationAmount.amount.description == "50")
        #expect(quote.transactionFeeAmount.amount.string(places: 2) == "1.25")
        #expect(quote.networkFeeAmount.amount.string(places: 2) == "0.01")
        #expect(quote.sourceTotalAmount.amount.string(places: 2) == "51.26")
        #expect(
            quote.sourceTotalAmount.amount
                == quote.sourceAmount.amount + quote.networkFeeAmount.amount + quote.transactionFeeAmount.amount)
    }

    @Test func destinationAmountPricesTheSource() throws {
        let quote = try calculator.embeddedQuote(
            EmbeddedQuoteRequest(
                sourceCurrency: "usd", destinationCurrency: "sol", destinationNetwork: "solana",
                amount: .destination(amount("0.5"))), clock: clock)
        #expect(quote.sourceAmount.amount.string(places: 2) == "75.00")
        #expect(quote.transactionFeeAmount.amount.string(places: 2) == "1.88")
        #expect(quote.sourceTotalAmount.amount.string(places: 2) == "76.89")
    }

    @Test func expiresAfterItsLifetime() throws {
        let quote = try calculator.embeddedQuote(
            EmbeddedQuoteRequest(
                sourceCurrency: "usd", destinationCurrency: "usdc", destinationNetwork: "base",
                amount: .source(amount("10"))), clock: clock, lifetime: 30)
        #expect(quote.expiresAt == clock.now().addingTimeInterval(30))
        #expect(!quote.isExpired(at: clock.now()))
        clock.advance(by: 30)
        #expect(quote.isExpired(at: clock.now()))
    }

    @Test func refusesUpperCaseCodesAndUnknownPairs() {
        expectCode(.unknownAsset) {
            _ = try calculator.embeddedQuote(
                EmbeddedQuoteRequest(
                    sourceCurrency: "usd", destinationCurrency: "USDC", destinationNetwork: "base",
                    amount: .source(amount("10"))), clock: clock)
        }
        expectCode(.assetNotOnNetwork) {
            _ = try calculator.embeddedQuote(
                EmbeddedQuoteRequest(
                    sourceCurrency: "usd", destinationCurrency: "btc", destinationNetwork: "base",
                    amount: .source(amount("10"))), clock: clock)
        }
        expectCode(.unknownFiatCurrency) {
            _ = try calculator.embeddedQuote(
                EmbeddedQuoteRequest(
                    sourceCurrency: "jpy", destinationCurrency: "usdc", destinationNetwork: "base",
                    amount: .source(amount("10"))), clock: clock)
        }
    }

    @Test func checksLimitsOnTheSourceTotal() {
        expectCode(.amountAboveMaximum) {
            _ = try calculator.embeddedQuote(
                EmbeddedQuoteRequest(
                    sourceCurrency: "usd", destinationCurrency: "usdc", destinationNetwork: "base",
                    amount: .source(amount("7400"))), clock: clock)
        }
    }

    @Test func parsesExactlyOneAmount() throws {
        #expect(try EmbeddedAmount.parse(sourceAmount: "10", destinationAmount: nil) == .source(amount("10")))
        #expect(
            try EmbeddedAmount.parse(sourceAmount: nil, destinationAmount: "1") == .destination(amount("1")))
        expectCode(.amountChoiceInvalid) { _ = try EmbeddedAmount.parse(sourceAmount: "1", destinationAmount: "1") }
    }
}

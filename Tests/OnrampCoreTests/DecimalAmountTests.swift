import Foundation
import OnrampCore
import Testing

@Suite struct DecimalAmountTests {
    @Test(arguments: [
        ("0", "0"), ("25.00", "25"), ("25.50", "25.5"), ("0007.10", "7.1"),
        ("0.000000000000000001", "0.000000000000000001"), ("123456789012345678.5", "123456789012345678.5"),
    ])
    func parsesWireStringsToCanonicalForm(input: String, canonical: String) throws {
        #expect(try DecimalAmount(parsing: input).description == canonical)
    }

    @Test(arguments: [
        "", "-1", "+1", "1e5", "1E5", "1.", ".5", "1.2.3", " 1", "1 ", "1,00", "１", "0x10", "NaN",
        "0.0000000000000000001", String(repeating: "1", count: 41),
    ])
    func refusesMalformedStrings(input: String) {
        #expect(throws: OnrampError.self) { try DecimalAmount(parsing: input) }
        do {
            _ = try DecimalAmount(parsing: input, parameter: "paymentAmount")
        } catch let error as OnrampError {
            #expect(error.code == .invalidAmount)
            #expect(error.parameter == "paymentAmount")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func acceptsNegativeOnlyWhenAllowed() throws {
        #expect(try DecimalAmount(parsing: "-1.50", allowsNegative: true).description == "-1.5")
        #expect(throws: OnrampError.self) { try DecimalAmount(parsing: "-1.50") }
    }

    @Test func limitsFractionDigitsOnRequest() throws {
        #expect(try DecimalAmount(parsing: "1.23", maximumFractionDigits: 2).description == "1.23")
        #expect(throws: OnrampError.self) { try DecimalAmount(parsing: "1.234", maximumFractionDigits: 2) }
    }

    @Test func refusesTooManySignificantDigits() {
        let digits = String(repeating: "9", count: 35)
        #expect(throws: OnrampError.self) { try DecimalAmount(parsing: digits) }
    }

    @Test func addsExactly() throws {
        let sum = try DecimalAmount(parsing: "0.1") + DecimalAmount(parsing: "0.2")
        #expect(sum == (try DecimalAmount(parsing: "0.3")))
        #expect(sum.description == "0.3")
    }

    @Test func subtractsMultipliesAndDivides() throws {
        let a = try DecimalAmount(parsing: "10.50")
        let b = try DecimalAmount(parsing: "3")
        #expect((a - b).description == "7.5")
        #expect((a * b).description == "31.5")
        #expect((a / b).description == "3.5")
        #expect((b - a).description == "-7.5")
    }

    @Test func compares() throws {
        #expect(try DecimalAmount(parsing: "2.10") == DecimalAmount(parsing: "2.1"))
        #expect(try DecimalAmount(parsing: "2.09") < DecimalAmount(parsing: "2.1"))
        #expect(try DecimalAmount(parsing: "10") > DecimalAmount(parsing: "9.999999"))
    }

    @Test(arguments: [
        ("2.345", DecimalRounding.bankers, "2.34"), ("2.355", .bankers, "2.36"), ("2.3451", .bankers, "2.35"),
        ("2.349", .down, "2.34"), ("-2.349", .down, "-2.34"), ("2.341", .up, "2.35"), ("-2.341", .up, "-2.35"),
        ("2.34", .up, "2.34"), ("0.001", .down, "0"),
    ])
    func roundsWithExplicitMode(input: String, mode: DecimalRounding, expected: String) throws {
        let value = try DecimalAmount(parsing: input, allowsNegative: true)
        #expect(value.rounded(toPlaces: 2, mode: mode).description == expected)
    }

    @Test func roundsToZeroPlaces() throws {
        #expect(try DecimalAmount(parsing: "2.5").rounded(toPlaces: 0, mode: .bankers).description == "2")
        #expect(try DecimalAmount(parsing: "3.5").rounded(toPlaces: 0, mode: .bankers).description == "4")
    }

    @Test func formatsWithFixedPlaces() throws {
        #expect(try DecimalAmount(parsing: "25").string(places: 2) == "25.00")
        #expect(try DecimalAmount(parsing: "25.5").string(places: 2) == "25.50")
        #expect(try DecimalAmount(parsing: "25.555").string(places: 2, mode: .down) == "25.55")
        #expect(try DecimalAmount(parsing: "7.9").string(places: 0, mode: .down) == "7")
    }

    @Test func equalValuesHashAlike() throws {
        let values: Set<DecimalAmount> = [try DecimalAmount(parsing: "2.1"), try DecimalAmount(parsing: "2.10")]
        #expect(values.count == 1)
    }

    @Test func countsFractionDigits() throws {
        #expect(try DecimalAmount(parsing: "1.500").fractionDigits == 1)
        #expect(try DecimalAmount(parsing: "12").fractionDigits == 0)
    }

    @Test func codesAsJSONString() throws {
        let data = try JSONEncoder().encode(["value": try DecimalAmount(parsing: "1.50")])
        #expect(String(decoding: data, as: UTF8.self) == #"{"value":"1.5"}"#)
        let decoded = try JSONDecoder().decode([String: DecimalAmount].self, from: data)
        #expect(decoded["value"]?.description == "1.5")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: DecimalAmount].self, from: Data(#"{"v":"1e3"}"#.utf8))
        }
    }

    @Test func moneyRefusesMixedCurrencies() throws {
        let usd = Money(amount: try DecimalAmount(parsing: "1"), currency: "USD")
        let eur = Money(amount: try DecimalAmount(parsing: "1"), currency: "EUR")
        #expect(try usd.adding(usd).description == "2 USD")
        #expect(try usd.subtracting(usd).amount.isZero)
        #expect(throws: OnrampError.self) { try usd.adding(eur) }
    }
}

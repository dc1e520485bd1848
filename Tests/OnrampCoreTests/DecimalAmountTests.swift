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
        #expect(a.divided(by: b, toPlaces: 2, mode: .down).description == "3.5")
        #expect((b - a).description == "-7.5")
    }

    /// The quotient is rounded once, from the exact remainder: 2 / 3 to 6 places, 1 / 7 half-even,
    /// and a remainder far past the places still rounds `.up` (a 38-digit quotient truncated first
    /// would have lost it).
    @Test func dividesExactlyToThePlacesAsked() throws {
        let two = DecimalAmount(exactly: 2)
        let three = DecimalAmount(exactly: 3)
        #expect(two.divided(by: three, toPlaces: 6, mode: .down).description == "0.666666")
        #expect(two.divided(by: three, toPlaces: 6, mode: .bankers).description == "0.666667")
        #expect(two.divided(by: three, toPlaces: 6, mode: .up).description == "0.666667")
        #expect(
            DecimalAmount(exactly: 1).divided(by: DecimalAmount(exactly: 8), toPlaces: 2, mode: .bankers)
                == (try DecimalAmount(parsing: "0.12")))
        #expect(
            DecimalAmount(exactly: 3).divided(by: DecimalAmount(exactly: 8), toPlaces: 2, mode: .bankers)
                == (try DecimalAmount(parsing: "0.38")))
        let justAboveOne = try DecimalAmount(parsing: "1.000000000000000001")
        let huge = try DecimalAmount(parsing: "1000000000000000000000000000000")
        #expect((justAboveOne * huge).divided(by: huge, toPlaces: 2, mode: .up).description == "1.01")
        #expect(
            try DecimalAmount(parsing: "-7", allowsNegative: true).divided(by: two, toPlaces: 0, mode: .bankers)
                .description == "-4")
        #expect(try DecimalAmount(parsing: "1").divided(by: huge, toPlaces: 2, mode: .up).description == "0.01")
        #expect(
            try DecimalAmount(parsing: "0.000001").divided(
                by: DecimalAmount(parsing: "0.000000000000000003"), toPlaces: 18, mode: .down
            ).description == "333333333333.333333333333333333")
    }

    /// Foundation's `Decimal` as the oracle: sums, differences, products, rounding and text of random
    /// amounts agree with it (operands of at most 18 digits: every result fits in 38 digits, where
    /// `Decimal` is exact too).
    @Test func agreesWithFoundationDecimal() throws {
        var generator = SystemRandomNumberGenerator()
        func randomAmount() throws -> DecimalAmount {
            let integer = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let places = Int.random(in: 0...9, using: &generator)
            let fraction = (0..<places).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            let sign = Bool.random(using: &generator) ? "-" : ""
            return try DecimalAmount(parsing: sign + integer + (places > 0 ? "." + fraction : ""), allowsNegative: true)
        }
        for _ in 0..<2_000 {
            let (a, b) = (try randomAmount(), try randomAmount())
            #expect((a + b).value == a.value + b.value, "\(a) + \(b)")
            #expect((a - b).value == a.value - b.value, "\(a) - \(b)")
            #expect((a * b).value == a.value * b.value, "\(a) * \(b)")
            #expect((a < b) == (a.value < b.value), "\(a) < \(b)")
            #expect(DecimalAmount(a.value) == a)
            let places = Int.random(in: 0...8, using: &generator)
            for mode in DecimalRounding.allCases {
                var rounded = Decimal()
                let foundationMode: NSDecimalNumber.RoundingMode =
                    mode == .bankers ? .bankers : (mode == .up ? .up : .down)
                var magnitude = a.value.magnitude
                NSDecimalRound(&rounded, &magnitude, places, foundationMode)
                if a.isNegative && rounded != 0 { rounded.negate() }
                #expect(a.rounded(toPlaces: places, mode: mode).value == rounded, "\(a) to \(places) \(mode)")
            }
        }
    }

    /// A result of more than 38 digits keeps the 38 leading ones, rounded half to even.
    @Test func keepsThirtyEightDigitsOfAWiderResult() throws {
        let wide = try DecimalAmount(parsing: "100000000000000000001")
        #expect((wide * wide).description == "10000000000000000000200000000000000000000")
        let large = try DecimalAmount(parsing: "1000000000000000000000000000000000")
        let small = try DecimalAmount(parsing: "0.00006")
        #expect((large + small).description == "1000000000000000000000000000000000.0001")
        #expect((large - small).description == "999999999999999999999999999999999.99994")
        #expect(large + (try DecimalAmount(parsing: "0.000000000000000005")) == large)
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

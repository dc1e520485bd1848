import Foundation
import OnrampWire
import Testing

/// ``JSONValueEncoder``: what a synthesized `Encodable` writes, as a ``JSONValue`` with its members in order.
@Suite struct JSONValueEncoderTests {
    struct Order: Encodable {
        enum Status: String, Encodable { case pending = "ORDER_PENDING" }
        struct Line: Encodable {
            let sku: String
            let quantity: Int
        }

        let id: String
        let status: Status
        let lines: [Line]
        let note: String?
        let paid: Bool
        let metadata: [String: String]
        let extra: JSONValue
        let counts: [UInt64]
    }

    static let order = Order(
        id: "ord_1", status: .pending, lines: [.init(sku: "a", quantity: 2), .init(sku: "b", quantity: -1)],
        note: nil, paid: false, metadata: ["zeta": "1", "alpha": "2", "mid": "3"],
        extra: ["kept": .number("25.000000000000000001")], counts: [0, UInt64.max])

    @Test func membersFollowTheDeclarationAndNumbersAreExact() throws {
        let json = try JSONValueEncoder().encode(Self.order)
        #expect(
            json.serializedString
                == #"{"id":"ord_1","status":"ORDER_PENDING","lines":[{"sku":"a","quantity":2},{"sku":"b","quantity":-1}],"paid":false,"metadata":{"alpha":"2","mid":"3","zeta":"1"},"extra":{"kept":25.000000000000000001},"counts":[0,18446744073709551615]}"#
        )
    }

    @Test func anAbsentOptionalIsLeftOutOrNull() throws {
        #expect(try JSONValueEncoder().encode(Self.order)["note"] == nil)
        let nulls = try JSONValueEncoder(nils: .null).encode(Self.order)
        #expect(nulls["note"] == .null && nulls.objectValue?.map(\.0).contains("note") == true)
        #expect(nulls.objectValue?.map(\.0).firstIndex(of: "note") == 3, "in its declared place")
    }

    /// A dictionary's hash order changes from run to run; its keys are written sorted, every time.
    @Test func dictionariesAreSorted() throws {
        let keys = (0..<50).map { "k\($0)" }
        let dictionary = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0.count) })
        let written = try JSONValueEncoder().encode(dictionary).objectValue?.map(\.0)
        #expect(written == keys.sorted())
    }

    @Test func aNonFiniteNumberIsRefusedWithItsPath() throws {
        struct Reading: Encodable { let values: [Double] }
        #expect(try JSONValueEncoder().encode(Reading(values: [1.5])).serializedString == #"{"values":[1.5]}"#)
        do {
            _ = try JSONValueEncoder().encode(Reading(values: [1, .infinity]))
            Issue.record("infinity was encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "1"])
        }
    }

    /// The objects of the wire render through it and decode back with Foundation's decoder.
    @Test func aWireObjectIsItsEncoding() throws {
        let body = CDPErrorBody(errorType: "invalid_request", errorMessage: "No.")
        #expect(body.json == ["errorType": "invalid_request", "errorMessage": "No."])
        let amount = OnrampTransaction.Amount(value: "1.00", currency: "USD")
        #expect(amount.json == ["value": "1.00", "currency": "USD"])
        #expect(try JSONDecoder().decode(CDPErrorBody.self, from: Data(body.json.serialized)) == body)
    }

    /// Foundation's encoder takes a ``JSONValue`` too (its integers exactly), so a client can send one.
    @Test func aJSONValueEncodesWithFoundationToo() throws {
        let value: JSONValue = ["n": .number("9007199254740993"), "list": [true, .null, "x"]]
        let data = try JSONEncoder().encode(value)
        // Foundation's encoder keeps an object's members in a dictionary: compare them by name.
        let decoded = try JSONParser().parse(String(decoding: data, as: UTF8.self))
        #expect(decoded["n"] == .number("9007199254740993") && decoded["list"] == [true, .null, "x"], "\(decoded)")
    }
}

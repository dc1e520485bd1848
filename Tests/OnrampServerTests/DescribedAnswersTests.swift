import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The check every test's answers pass through: it must catch each way an answer can contradict the
/// description, or the suite's silence about `/openapi.json` would mean nothing.
struct DescribedAnswersTests {
    private static let validator = SchemaValidator(components: APIComponents.document.schemas)

    private static func errors(_ value: JSONValue, _ schema: APISchema) -> [String] {
        validator.errors(of: value, against: schema.json)
    }

    @Test func aConformingObjectHasNoErrors() {
        let schema = APISchema.object(
            [
                "id": .string(pattern: "^cos_"), "amount": .decimalString, "count": .integer(minimum: 0),
                "status": .enumeration(["open", "done"]), "object": .constant("thing"),
                "tags": .array(.string(maxLength: 3)), "note": APISchema.string.nullable, "at": .dateTime,
            ], required: ["id", "amount"], closed: true)
        let value: JSONValue = [
            "id": "cos_1", "amount": "10.50", "count": 3, "status": "open", "object": "thing", "tags": ["a", "bc"],
            "note": nil, "at": "2026-12-04T18:30:24Z",
        ]
        #expect(Self.errors(value, schema) == [])
    }

    @Test func eachBrokenRuleIsNamedWithItsLocation() {
        let schema = APISchema.object(
            [
                "id": .string(pattern: "^cos_"), "amount": .decimalString, "count": .integer(minimum: 0),
                "status": .enumeration(["open", "done"]), "object": .constant("thing"),
                "tags": .array(.string(maxLength: 3)), "at": .dateTime,
            ], required: ["id", "amount", "missing"], closed: true)
        let value: JSONValue = [
            "id": "pi_1", "amount": .number("10.5"), "count": .number("-1"), "status": "lost", "object": "other",
            "tags": ["long"], "at": "yesterday", "extra": true,
        ]
        let errors = Self.errors(value, schema)
        for expected in [
            "$.id: \"pi_1\" does not match ^cos_", "$.amount: 10.5 is not string", "$.count: -1 is below 0",
            "$.status: \"lost\" is not one of", "$.object: \"other\" is not \"thing\"",
            "$.tags.0: a string of 4 characters breaks maxLength 3", "$.at: \"yesterday\" is not a date-time",
            "$: missing is required", "$: extra is not a documented member",
        ] {
            #expect(errors.contains { $0.hasPrefix(expected) }, "\(expected) in \(errors)")
        }
        #expect(errors.count == 9)
    }

    @Test func integersAlternativesReferencesAndUnknownKeywords() {
        #expect(Self.errors(.number("1.5"), .integer) == ["$: 1.5 is not integer"])
        #expect(Self.errors(.number("2"), .integer) == [])
        #expect(Self.errors("x", APISchema.integer.nullable).count == 1)
        #expect(Self.errors(nil, APISchema.integer.nullable) == [])
        #expect(Self.errors(["error": ["type": "api_error"]], .reference(APIComponents.stripeError)).count == 1)
        #expect(
            Self.errors(["error": ["type": "api_error", "message": "m"]], .reference(APIComponents.stripeError)) == [])
        #expect(Self.errors(1, .reference("Nothing")) == ["$: no component \"#/components/schemas/Nothing\""])
        #expect(Self.errors(1, APISchema(json: ["multipleOf": 2])) == ["$: the validator does not know multipleOf"])
    }

    @Test func anAnswerIsHeldToItsRoutesDocumentedStatusMediaTypeAndSchema() throws {
        let server = try EmbeddedTestServer(startWorkers: false)
        let answers = DescribedAnswers(router: server.application.router)
        func check(_ status: Int, _ contentType: String?, _ body: JSONValue) -> [String] {
            answers.violations(
                method: "GET", target: "/v1/crypto/onramp_sessions/cos_1?expand=x",
                response: RawHTTPClient.Response(
                    status: status, headers: contentType.map { ["content-type": $0] } ?? [:], body: body.serialized))
        }
        let refusal: JSONValue = ["error": ["type": "invalid_request_error", "message": "No such session."]]
        #expect(check(404, "application/json", refusal) == [])
        #expect(
            check(302, "application/json", refusal) == [
                "GET /v1/crypto/onramp_sessions/{id} → 302: the status is not documented"
            ])
        #expect(
            check(404, "text/html; charset=utf-8", refusal) == [
                "GET /v1/crypto/onramp_sessions/{id} → 404: Content-Type text/html, documented application/json"
            ])
        #expect(check(404, "application/json", ["error": "gone"]).count == 1)
        #expect(check(200, "application/json", ["id": "cos_1"]).contains { $0.contains("object is required") })
        // A path no route serves is the router's own 404, outside any operation.
        #expect(
            answers.violations(
                method: "GET", target: "/nowhere",
                response: RawHTTPClient.Response(status: 404, headers: [:], body: [])) == [])
    }
}

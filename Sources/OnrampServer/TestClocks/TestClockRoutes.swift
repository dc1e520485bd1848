import HTTPServer
import OnrampServices
import OnrampWire

/// Moving a test-mode project's clock, in each family's style: CDP's JSON with a CDP API key JWT, and
/// Stripe's form with the secret key (Stripe's own `test_helpers` namespace). Challenges, quotes and
/// the other expiries the project's requests decide then behave as if that much time had passed.
struct TestClockRoutes: Sendable {
    let context: ServerContext

    func advanceCDP(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let fields = RequestFields(try request.jsonBody())
        let offset = try advance(projectId, seconds: try Self.seconds(fields.optional("seconds", maxLength: 10)))
        return .json([
            "projectId": .string(projectId), "offsetSeconds": .string(String(offset / 1000)),
            "now": .string(Timestamp.rfc3339(milliseconds: projectNow(offset))),
        ])
    }

    func advanceStripe(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        guard !caller.livemode else {
            throw StripeErrors.invalid(
                "livemode_test_clock", "Test clocks move test-mode projects only; use your test key.")
        }
        let seconds = try Self.seconds(try RequestFields.stripe(body).optional("seconds", maxLength: 10))
        let offset = try advance(caller.projectId, seconds: seconds)
        return [
            "object": "test_clock", "project": .string(caller.projectId), "livemode": false,
            "offset_seconds": .integer(offset / 1000),
            "now": .integer(projectNow(offset) / 1000),
        ]
    }

    /// `seconds` as a whole number of seconds (400 otherwise).
    private static func seconds(_ text: String?) throws(FieldError) -> Int64 {
        guard let text, let seconds = Int64(text), text.allSatisfy(\.isNumber),
            (1...TestClocks.maximumSeconds).contains(seconds)
        else {
            throw FieldError(
                code: "invalid_request",
                message: "seconds must be a whole number from 1 to \(TestClocks.maximumSeconds).", param: "seconds")
        }
        return seconds
    }

    /// The project's time under `offset`, whatever offset the request itself was bound to.
    private func projectNow(_ offset: Int64) -> Int64 {
        context.nowMilliseconds - TestClockOffset.milliseconds + offset
    }

    private func advance(_ projectId: String, seconds: Int64) throws -> Int64 {
        do {
            return try context.testClocks.advance(projectId: projectId, seconds: seconds)
        } catch TestClocks.Refusal.liveProject {
            throw FieldError(
                code: "invalid_request", message: "A live-mode project's clock cannot be moved.",
                param: "seconds")
        }
    }
}

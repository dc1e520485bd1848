import HTTPServer
import OnrampServices
import OnrampWire

extension TestClockRoutes {
    /// What the test-clock routes take and answer.
    enum Operations {
        /// `POST /platform/v2/onramp/test_clocks/advance`.
        static let advanceCDP = APIOperation.cdp(
            "POST /platform/v2/onramp/test_clocks/advance",
            "advanceTestClock", "Moves the API key's test-mode project this many seconds ahead.", tag: "Test clocks",
            auth: .apiKeyJWT,
            body: .object(
                [
                    "seconds": .anyOf([
                        .string(pattern: "^[0-9]{1,10}$"),
                        .integer(minimum: 1, maximum: Int(TestClocks.maximumSeconds)),
                    ])
                ], required: ["seconds"]),
            response: .object(
                ["projectId": .string, "offsetSeconds": .string, "now": .dateTime],
                required: ["projectId", "offsetSeconds", "now"]))

        /// `POST /v1/test_helpers/test_clocks/advance`.
        static let advanceStripe = APIOperation.stripe(
            "POST /v1/test_helpers/test_clocks/advance",
            "advanceStripeTestClock", "Moves the secret key's test-mode project this many seconds ahead.",
            tag: "Test clocks", auth: .secretKey,
            form: .object(["seconds": .string(pattern: "^[0-9]{1,10}$")], required: ["seconds"]),
            response: .object(
                [
                    "object": .constant("test_clock"), "project": .string, "livemode": .boolean,
                    "offset_seconds": .integer, "now": .integer,
                ], required: ["object", "project", "livemode", "offset_seconds", "now"]))
    }
}

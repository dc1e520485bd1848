import HTTPServer
import OnrampServices
import OnrampWire

extension HostedTestPages {
    /// The OpenAPI operations of the test-mode 3-D Secure page.
    enum Operations {
        /// The challenge link's `session` and `token`; unknown values answer the 404 page.
        static let challengeQuery = [
            APIParameter("session", .string(maxLength: 64), required: true),
            APIParameter("token", .string(maxLength: 64), required: true),
        ]

        /// Shows the challenge.
        static let showThreeDSecurePage = APIOperation.page(
            "GET \(HostedTestPages.threeDSPath)",
            "showThreeDSecurePage", "Shows the test-mode 3-D Secure challenge of an onramp session.",
            tag: "Embedded pages", query: challengeQuery)

        /// The challenge's answer.
        static let challengeForm = APISchema.object(
            [
                "session": .string(minLength: 1, maxLength: 64), "token": .string(minLength: 1, maxLength: 64),
                "outcome": .enumeration(["complete", "fail"]),
            ], required: ["session", "token", "outcome"])

        /// Answers the challenge.
        static let submitThreeDSecurePage = APIOperation.page(
            "POST \(HostedTestPages.threeDSPath)",
            "submitThreeDSecurePage", "Completes or fails the 3-D Secure challenge for the next checkout.",
            tag: "Embedded pages", form: challengeForm)
    }
}

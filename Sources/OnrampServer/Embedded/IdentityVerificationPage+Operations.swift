import HTTPServer
import OnrampServices
import OnrampWire

extension IdentityVerificationPage {
    /// The OpenAPI operations of the test-mode identity verification page.
    enum Operations {
        /// The verification link's `session` and `token`; unknown values answer the 404 page.
        static let verificationQuery = [
            APIParameter("session", .string(maxLength: 64), required: true),
            APIParameter("token", .string(maxLength: 64), required: true),
        ]

        /// Shows the verification.
        static let showIdentityVerificationPage = APIOperation.page(
            "GET \(IdentityVerificationPage.path)",
            "showIdentityVerificationPage", "Shows the test-mode identity check, where the tester picks the outcome.",
            tag: "Embedded pages", query: verificationQuery)

        /// The picked outcome.
        static let outcomeForm = APISchema.object(
            [
                "session": .string(minLength: 1, maxLength: 64), "token": .string(minLength: 1, maxLength: 64),
                "outcome": .enumeration(IdentityVerificationPage.outcomes.map { $0.value }),
            ], required: ["session", "token", "outcome"])

        /// Records the outcome.
        static let submitIdentityVerificationPage = APIOperation.page(
            "POST \(IdentityVerificationPage.path)",
            "submitIdentityVerificationPage", "Records the picked outcome as the customer's document status.",
            tag: "Embedded pages", form: outcomeForm)
    }
}

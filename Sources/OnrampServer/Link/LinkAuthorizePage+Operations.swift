import HTTPServer
import OnrampServices
import OnrampWire

extension LinkAuthorizePage {
    /// The OpenAPI operations of the test-mode Link authorize page.
    enum Operations {
        /// A LinkAuthIntent id (`lai_…`); any other value answers the 404 page.
        static let intentId = APISchema.string(maxLength: 64, pattern: "^lai_")

        /// Shows the page.
        static let showLinkAuthorizePage = APIOperation.page(
            "GET \(LinkAuthorizePage.path)",
            "showLinkAuthorizePage", "Shows the test-mode one-time code and consent page of a LinkAuthIntent.",
            tag: "Embedded pages", query: [APIParameter("link_auth_intent", intentId, required: true)])

        /// The page's form: the intent, its consumer session, the code and the decision.
        static let submitForm = APISchema.object(
            [
                "link_auth_intent": intentId, "session": .string(minLength: 1, maxLength: 128),
                "code": .string(minLength: 1, maxLength: 16).described("Test mode: 000000."),
                "decision": .string(minLength: 1, maxLength: 8).described("`allow`; any other value denies."),
            ], required: ["link_auth_intent", "session", "code", "decision"])

        /// Submits the page.
        static let submitLinkAuthorizePage = APIOperation.page(
            "POST \(LinkAuthorizePage.path)",
            "submitLinkAuthorizePage", "Checks the one-time code and allows or denies the LinkAuthIntent.",
            tag: "Embedded pages", form: submitForm)
    }
}

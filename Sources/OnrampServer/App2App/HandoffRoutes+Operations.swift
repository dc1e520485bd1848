import HTTPServer
import OnrampServices
import OnrampWire

extension HandoffRoutes {
    /// The OpenAPI operations of the App2App purchase handoff page at a session's `onrampUrl`.
    enum Operations {
        /// `GET /onramp/app2app?sessionToken=…`: opening the page spends the token.
        static let openPurchaseHandoffPage = APIOperation.page(
            "GET \(HandoffRoutes.pagePath)",
            "openPurchaseHandoffPage", "Opens the confirmation page of an App2App purchase session (single use).",
            tag: App2AppRoutes.Operations.tag,
            query: [APIParameter("sessionToken", .string(minLength: 1, maxLength: 64), required: true)])

        /// The Confirm or Cancel form the page posts.
        static let handoffForm = APISchema.object(
            [
                "sessionToken": .string(minLength: 1, maxLength: 64),
                "pageSecret": .string(minLength: 1, maxLength: 64),
                "action": .enumeration(["confirm", "cancel"]),
            ], required: ["sessionToken", "pageSecret", "action"])

        /// `POST /onramp/app2app`: Confirm or Cancel, answered with a 303 to the partner's `redirectUrl`.
        static let submitPurchaseHandoff = APIOperation.page(
            "POST \(HandoffRoutes.pagePath)",
            "submitPurchaseHandoff",
            "Confirms or cancels the App2App purchase and sends the browser back to the app's redirectUrl.",
            tag: App2AppRoutes.Operations.tag, form: handoffForm)
    }
}

import HTTPServer
import OnrampRuntime
import OnrampServices
import OnrampWire

/// The server's OpenAPI description: the shared error schemas, the security schemes, and the
/// `/openapi.json` route that serves the document generated from the router's routes.
enum APIComponents {
    /// The CDP family's error object.
    static let cdpError = "CDPError"
    /// The Stripe family's error object.
    static let stripeError = "StripeError"

    static let document = OpenAPIDocument(
        title: "OnrampKit",
        version: OnrampKitVersion.current,
        summary: """
            Both onramp contracts on their real paths: Coinbase's (App2App with App Attest, the hosted \
            onramp, the Headless Onramp, the offramp, the transactions API, CDP webhooks) and Stripe's \
            Embedded Components (Link, KYC, wallets, payment methods, onramp sessions, checkout, events). \
            Generated from the server's route table.
            """,
        schemas: [(cdpError, CDPErrorBody.schema), (stripeError, StripeErrorBody.schema)],
        securitySchemes: [
            (
                "cdpApiKey",
                [
                    "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                    "description": "A CDP API key JWT (ES256 or EdDSA) whose `uris` names this method, host and path.",
                ]
            ),
            (
                "stripeKey",
                [
                    "type": "http", "scheme": "bearer",
                    "description": "A secret (`sk_…`) or, on client routes, publishable (`pk_…`) key.",
                ]
            ),
            (
                "stripeEphemeralKey",
                [
                    "type": "http", "scheme": "bearer",
                    "description":
                        "An identity verification's ephemeral key (`ek_…`) from start_identity_verification.",
                ]
            ),
            (
                "stripeOAuthToken",
                [
                    "type": "apiKey", "in": "header", "name": "Stripe-OAuth-Token",
                    "description": "A Link user's access token (`liwltoken_…`) from the LinkAuthIntent consent.",
                ]
            ),
            (
                "consoleCookie",
                [
                    "type": "apiKey", "in": "cookie", "name": "onramp_console",
                    "description": "The sandbox console's sign-in cookie, set by /console/login.",
                ]
            ),
            (
                "consoleToken",
                [
                    "type": "http", "scheme": "bearer",
                    "description": "The console's operator token, printed by `onramp serve` (or --console-token).",
                ]
            ),
        ])

    /// The `/openapi.json` operation.
    static let openAPIOperation = APIOperation(
        "GET /openapi.json", id: "getOpenAPIDescription", summary: "This description.", tag: "Operations",
        responses: [.json(200, "The OpenAPI 3.1 description of every route.", .anyObject)])

    /// Adds `GET /openapi.json`, describing every route already on `router` and itself; add it last.
    /// The description is written on its first request and kept: a server that is never asked for it
    /// (every test server but a few) does not pay for rendering ~140 operations at start.
    static func register(on router: inout Router) {
        let entries =
            router.entries + [Router.Entry(openAPIOperation)]
        let rendered = Locked<[UInt8]?>(nil)
        router.add(openAPIOperation) { _ in
            let body = rendered.withLock { body in
                if let body { return body }
                let written = document.json(routes: entries).serialized
                body = written
                return written
            }
            var response = HTTPResponse(status: 200, body: body)
            response.headers.set("Content-Type", "application/json")
            return response
        }
    }
}

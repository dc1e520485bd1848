import HTTPServer
import OnrampServices
import OnrampWire

/// How a CDP-family route authenticates.
enum CDPAuth: Sendable {
    /// No credentials: the seed's mobile calls (App Attest proves the app) and public reads.
    case none
    /// A CDP API key JWT in `Authorization: Bearer`.
    case apiKeyJWT
}

/// How a Stripe-family route authenticates.
enum StripeAuth: Sendable {
    /// The secret key (`sk_…`), from the partner's backend.
    case secretKey
    /// The publishable key (`pk_…`) or the secret key, from the client SDK.
    case anyKey
    /// The secret key and a Link user's access token in `Stripe-OAuth-Token`.
    case secretKeyAndOAuthToken
    /// An identity verification's ephemeral key (`ek_…`): the StripeIdentity verification-page API.
    case ephemeralKey
}

/// The operation builders of each API family: every family's errors share one shape, so an operation
/// names only its success answer and the rest is added here.
extension APIOperation {
    /// A CDP-family JSON operation (`/platform/…`, `/onramp/v1/…`): errors are `CDPError` objects.
    static func cdp(
        _ route: String, _ id: String, _ summary: String, tag: String, auth: CDPAuth, query: [APIParameter] = [],
        headers: [APIParameter] = [], body: APISchema? = nil, status: Int = 200, response: APISchema
    ) -> APIOperation {
        APIOperation(
            route, id: id, summary: summary, tag: tag, security: auth == .apiKeyJWT ? [["cdpApiKey"]] : [],
            query: query,
            headers: headers, body: body.map { .json($0) },
            responses: [
                .json(status, "The answer.", response),
                .json(400, "A refused request.", .reference(APIComponents.cdpError)).ranged("4XX"),
                .json(500, "The server or its store failed.", .reference(APIComponents.cdpError)).ranged("5XX"),
            ])
    }

    /// A Stripe-family operation (`/v1/…`): form bodies, `StripeError` errors.
    static func stripe(
        _ route: String, _ id: String, _ summary: String, tag: String, auth: StripeAuth, query: [APIParameter] = [],
        headers: [APIParameter] = [], form: APISchema? = nil, response: APISchema
    ) -> APIOperation {
        let security: [[String]] =
            switch auth {
            case .secretKey, .anyKey: [["stripeKey"]]
            case .secretKeyAndOAuthToken: [["stripeKey", "stripeOAuthToken"]]
            case .ephemeralKey: [["stripeEphemeralKey"]]
            }
        return APIOperation(
            route, id: id, summary: summary, tag: tag, security: security, query: query,
            headers: headers + (form == nil ? [] : [APIParameter("Idempotency-Key", .string(maxLength: 255))]),
            body: form.map { .form($0, required: false) },
            responses: [
                .json(200, "The answer.", response),
                .json(400, "A refused request.", .reference(APIComponents.stripeError)).ranged("4XX"),
                .json(500, "The server or its store failed.", .reference(APIComponents.stripeError)).ranged("5XX"),
            ])
    }

    /// A page for a browser: HTML answers (errors too), a form body when it is a submission.
    static func page(
        _ route: String, _ id: String, _ summary: String, tag: String, query: [APIParameter] = [],
        form: APISchema? = nil,
        status: Int = 200
    ) -> APIOperation {
        APIOperation(
            route, id: id, summary: summary, tag: tag, query: query, body: form.map { .form($0) },
            responses: [
                APIResponse(status: String(status), description: "The page.", contentType: "text/html"),
                APIResponse(
                    status: "303", description: "Where the page sends the browser next.",
                    headers: [
                        APIParameter("Location", .string, required: true)
                    ]),
                APIResponse(status: "4XX", description: "A page explaining the refusal.", contentType: "text/html"),
                APIResponse(status: "5XX", description: "The server or its store failed.", contentType: "text/html"),
            ])
    }
}

extension APIResponse {
    /// The same answer for a range of statuses (`4XX`).
    func ranged(_ range: String) -> APIResponse {
        var response = self
        response.status = range
        return response
    }
}

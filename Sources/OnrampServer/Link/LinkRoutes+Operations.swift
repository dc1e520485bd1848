import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

extension LinkRoutes {
    /// The OpenAPI operations of the partner-backend Link routes (secret key).
    enum Operations {
        /// The `Idempotency-Key` of a POST without a form (the `.stripe` builder adds it to form routes).
        static let idempotencyKey = APIParameter("Idempotency-Key", .string(maxLength: 255))

        /// The LinkAuthIntent creation form.
        static let createIntentForm = APISchema.object(
            [
                "oauth_client_id": .string(minLength: 1, maxLength: 64),
                "oauth_scopes": .string(minLength: 1, maxLength: 512).described(
                    "Comma-separated, of kyc.status:read, crypto:ramp and auth.persist_login:read."),
                "email": .string(maxLength: 800).described("This or hashed_email is required."),
                "hashed_email": .string(maxLength: 64),
            ], required: ["oauth_client_id", "oauth_scopes"])

        /// A new `link_auth_intent`.
        static let linkAuthIntent = APISchema.object(
            [
                "id": .string, "object": .constant("link_auth_intent"),
                "status": .enumeration(LinkAuthIntent.Status.allCases.map(\.rawValue)), "expires_at": .integer,
            ], required: ["id", "object", "status", "expires_at"])

        /// Creates a LinkAuthIntent.
        static let createLinkAuthIntent = APIOperation.stripe(
            "POST /v1/link_auth_intent",
            "createLinkAuthIntent", "Asks a Link consumer, found by email, to consent to the OAuth scopes.",
            tag: "Link", auth: .secretKey, form: createIntentForm, response: linkAuthIntent)

        /// The refresh token of a consented intent.
        static let refreshToken = APISchema.object(
            ["refresh_token": .string, "expires_in": .integer], required: ["refresh_token", "expires_in"])

        /// The token pair of a consented intent.
        static let intentTokens = APISchema.object(
            [
                "access_token": .string, "token_type": .constant("Bearer"), "expires_in": .integer,
                "scope": .string.described("Space-separated."), "refresh": refreshToken,
                "link_auth_token": .string.described(
                    "With auth.persist_login:read: the Seamless Sign-In token (`lat_…`) the partner keeps."),
            ], required: ["access_token", "token_type", "expires_in", "scope", "refresh"])

        /// Issues the tokens of a consented intent.
        static let createLinkAuthIntentTokens = APIOperation.stripe(
            "POST /v1/link_auth_intent/{id}/tokens",
            "createLinkAuthIntentTokens", "Issues the OAuth tokens of a consented LinkAuthIntent, once.", tag: "Link",
            auth: .secretKey, headers: [idempotencyKey], response: intentTokens)

        /// A single-use seamless sign-in secret.
        static let linkAuthTokenClientSecret = APISchema.object(
            ["link_auth_token_client_secret": .string, "expires_at": .integer],
            required: ["link_auth_token_client_secret", "expires_at"])

        /// Exchanges a seamless sign-in token.
        static let createLinkAuthTokenClientSecret = APIOperation.stripe(
            "POST /v1/link_auth_tokens/client_secret",
            "createLinkAuthTokenClientSecret", "Exchanges a seamless sign-in token for a single-use client secret.",
            tag: "Link", auth: .secretKey,
            form: .object(["link_auth_token": .string(minLength: 1, maxLength: 128)], required: ["link_auth_token"]),
            response: linkAuthTokenClientSecret)

        /// The OAuth 2.0 error of `/auth/token`.
        static let oauthError = APISchema.object(
            ["error": .string, "error_description": .string], required: ["error", "error_description"])

        /// The refresh form (OAuth 2.0 `refresh_token` grant).
        static let refreshForm = APISchema.object(
            [
                "grant_type": .enumeration(["refresh_token"]), "refresh_token": .string(minLength: 1, maxLength: 128),
                "client_id": .string(minLength: 1, maxLength: 64),
                "client_secret": .string(minLength: 1, maxLength: 128),
            ], required: ["grant_type", "refresh_token", "client_id", "client_secret"])

        /// The rotated token pair.
        static let refreshedTokens = APISchema.object(
            [
                "access_token": .string, "refresh_token": .string, "token_type": .constant("Bearer"),
                "expires_in": .integer, "scope": .string.described("Comma-separated."),
            ], required: ["access_token", "refresh_token", "token_type", "expires_in", "scope"])

        /// Rotates a refresh token (OAuth 2.0 errors, not Stripe's).
        static let refreshLinkOAuthToken = APIOperation(
            "POST /auth/token",
            id: "refreshLinkOAuthToken", summary: "Rotates a Link refresh token for a new access and refresh token.",
            tag: "Link", security: [["stripeKey"]], body: .form(refreshForm),
            responses: [
                .json(200, "The new token pair.", refreshedTokens),
                .json(400, "A refused request, as an OAuth 2.0 error.", oauthError).ranged("4XX"),
                .json(500, "The server or its store failed.", oauthError).ranged("5XX"),
            ])
    }
}

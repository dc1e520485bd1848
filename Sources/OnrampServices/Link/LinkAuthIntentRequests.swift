import Foundation
import OnrampCore
import OnrampWire

/// `POST /v1/link_auth_intent` as the service takes it: the partner's OAuth client, the scopes it asks
/// for, and the consumer by email or by the email's hash. Decoded at the edge; no I/O.
package struct LinkAuthIntentRequest: Sendable, Equatable {
    package let clientId: String
    package let scopes: [OAuthScope]
    /// Lower-cased.
    package let email: String?
    /// Lower-cased hex.
    package let hashedEmail: String?

    /// Decodes `body`.
    package init(_ body: JSONValue) throws {
        let fields = RequestFields.stripe(body)
        clientId = try fields.required("oauth_client_id", maxLength: 64)
        if case .array = body["oauth_scopes"] {
            throw fields.invalid("oauth_scopes", "oauth_scopes is a comma-separated string, not an array.")
        }
        let named = try fields.required("oauth_scopes", maxLength: 512).split(separator: ",").map {
            OAuthScope(rawValue: String($0.trimmingCharacters(in: .whitespaces)))
        }
        scopes = named.compactMap { $0 }
        guard !scopes.isEmpty, scopes.count == named.count else {
            throw OnrampError.refusal(
                "invalid_scope",
                "oauth_scopes may contain \(OAuthScope.allCases.map(\.rawValue).sorted().joined(separator: ", ")).",
                parameter: "oauth_scopes")
        }
        email = try fields.optional("email", maxLength: 800)?.lowercased()
        hashedEmail = try fields.optional("hashed_email", maxLength: 64)?.lowercased()
        guard email != nil || hashedEmail != nil else {
            throw OnrampError.refusal("parameter_missing", "Send email or hashed_email.", parameter: "email")
        }
    }
}

/// `POST /auth/token` as the service takes it (OAuth 2.0 refresh, RFC 6749 §6): the refresh token and
/// the partner's OAuth client credentials. Decoded at the edge; no I/O.
package struct TokenRefresh: Sendable {
    package let refreshToken: String
    package let clientId: String
    package let clientSecret: String

    /// Decodes the form; anything but `grant_type=refresh_token` is `unsupported_grant_type`.
    package init(_ form: JSONValue) throws {
        let fields = RequestFields(form, invalidCode: "invalid_request", missingCode: "invalid_request")
        guard try fields.required("grant_type", maxLength: 32) == "refresh_token" else {
            throw OnrampError.refusal("unsupported_grant_type", "grant_type must be refresh_token.")
        }
        refreshToken = try fields.required("refresh_token", maxLength: 128)
        clientId = try fields.required("client_id", maxLength: 64)
        clientSecret = try fields.required("client_secret", maxLength: 128)
    }
}

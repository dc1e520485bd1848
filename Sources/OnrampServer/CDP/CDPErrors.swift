import HTTPServer
import OnrampCore
import OnrampServices

/// The CDP family's one mapping of domain errors to HTTP (`CDPErrorRenderer.httpError(for:)` asks it):
/// a domain refusal takes its kind's status (a broken rule: 400 `invalid_request`) with its parameter, the App2App refusals take the
/// seed's error table (App Attest failures carrying the verifier's code as `errorReason`), and the
/// webhooks API's refusals their 400 or 404.
enum CDPErrors {
    /// The HTTP form of a domain error, or nil for an error the family does not know.
    static func httpError(for error: any Error) -> HTTPError? {
        switch error {
        case let error as OnrampError:
            // Its code becomes the `errorType` when CDP documents it; otherwise the status picks one.
            HTTPError(
                status: error.status, code: error.code.rawValue, message: error.developerMessage, param: error.parameter
            )
        case let refusal as App2AppRefusal: httpError(refusing: refusal)
        case let refusal as WebhookSubscriptionRefusal: httpError(refusing: refusal)
        default: nil
        }
    }

    /// 401 `unauthorized`: the CDP API key JWT is missing, malformed, expired, replayed or not the key's.
    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(status: 401, code: "unauthorized", message: message)
    }

    /// 503 `service_unavailable`: the key store could not record the JWT's nonce.
    static let keyStoreUnavailable = HTTPError(
        status: 503, code: "service_unavailable", message: "The key store is unavailable.")

    /// The seed's error table.
    static func httpError(refusing refusal: App2AppRefusal) -> HTTPError {
        switch refusal {
        case .notEnabled:
            HTTPError(status: 403, code: "forbidden", message: "This project is not enabled for App2App.")
        case .unknownChallenge:
            HTTPError(
                status: 400, code: "invalid_request", message: "Unknown challenge. Create a new challenge.",
                param: "challenge")
        case .staleChallenge:
            HTTPError(
                status: 422, code: "stale_attestation",
                message: "The challenge is older than 5 minutes. Create a new challenge and re-attest.")
        case .attestationFailed(let reason):
            // "Registration attestation failed": create a new registration challenge, then a new key.
            HTTPError(
                status: 400, code: "invalid_request",
                message: "Registration attestation failed (\(reason)). Create a new registration challenge.",
                reason: reason)
        case .assertionFailed(let reason):
            // "Purchase assertion failed": a new purchase challenge; re-register only after repeated failures.
            HTTPError(
                status: 400, code: "invalid_request",
                message: "Purchase assertion failed (\(reason)). Create a new purchase challenge.", reason: reason)
        case .idempotencyKeyReused:
            HTTPError(
                status: 400, code: "invalid_request", message: "This Idempotency-Key was used with a different request."
            )
        case .developmentKeyOutsideSandbox:
            HTTPError(
                status: 400, code: "invalid_request",
                message:
                    "A development App Attest key may only create sessions whose partnerUserRef starts with sandbox-.",
                param: "partnerUserRef")
        case .rateLimited(let seconds):
            HTTPError(
                status: 429, code: "rate_limit_exceeded", message: "Too many requests; back off and retry.",
                headers: ["Retry-After": String(seconds)])
        }
    }

    /// A subscription change the webhooks API refuses.
    static func httpError(refusing refusal: WebhookSubscriptionRefusal) -> HTTPError {
        switch refusal {
        case .tooMany: HTTPError(status: 400, code: "invalid_request", message: refusal.description)
        case .notFound(let id): HTTPError(status: 404, code: "not_found", message: "No subscription \(id).")
        case .tooManyKeys(let field, _):
            HTTPError(
                status: 400, code: "invalid_request", message: refusal.description,
                param: field == "labels" ? "labelKey" : field)
        }
    }
}

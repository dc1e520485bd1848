import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The Stripe-shaped errors the Embedded and Link routes raise (rendered by ``StripeErrorRenderer``).
enum StripeErrors {
    /// 401 `authentication_error`.
    static func authentication(_ message: String, code: String = "api_key_invalid") -> HTTPError {
        HTTPError(status: 401, code: code, message: message, type: "authentication_error")
    }

    /// 400 `invalid_request_error` with `code` and `param`.
    static func invalid(_ code: String, _ message: String, param: String? = nil, status: Int = 400) -> HTTPError {
        HTTPError(status: status, code: code, message: message, param: param, type: "invalid_request_error")
    }

    /// 429 `rate_limit` with `Retry-After`.
    static func rateLimited(retryAfterSeconds: Int) -> HTTPError {
        HTTPError(
            status: 429, code: "rate_limit", message: "Too many requests hit the API too quickly; back off and retry.",
            type: "invalid_request_error", headers: ["Retry-After": String(retryAfterSeconds)])
    }

    /// 403 `secret_key_required`: a publishable key on a call that needs the secret key.
    static let secretKeyRequired = HTTPError(
        status: 403, code: "secret_key_required", message: "This call needs your secret key (sk_…).",
        type: "invalid_request_error")

    /// 400 `idempotency_error`: an `Idempotency-Key` sent again with another request.
    static let idempotencyKeyReused = HTTPError(
        status: 400, code: "idempotency_error",
        message: "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        type: "idempotency_error")

    /// 400 `idempotency_error`: the key's response was sealed under another data key and cannot be replayed.
    static let idempotencyReplayUnreadable = HTTPError(
        status: 400, code: "idempotency_error",
        message:
            "This Idempotency-Key was stored under another data key (set ONRAMP_DATA_KEY to keep replays across restarts); its response cannot be replayed. Use a new key.",
        type: "idempotency_error")

    /// 404 `resource_missing`.
    static func missing(_ what: String, param: String? = nil) -> HTTPError {
        HTTPError(
            status: 404, code: "resource_missing", message: "No such \(what).", param: param,
            type: "invalid_request_error")
    }

    /// 403 `livemode_not_supported`: a step this server only simulates (one-time codes, phone and
    /// identity checks) was called with a live key; live mode needs a real provider behind it.
    static func liveModeUnsupported(_ what: String) -> HTTPError {
        invalid(
            "livemode_not_supported",
            "\(what) is simulated in test mode only; live keys need a real verification provider.", status: 403)
    }

    /// The HTTP form of a domain error, or nil for an error the family does not know: a domain refusal
    /// (an ``OnrampError``) is an `invalid_request_error` with its kind's status and its own code (the
    /// contract's `crypto_onramp_*` codes and `resource_missing` among them); a refused webhook endpoint change its 400 or 404.
    static func httpError(for error: any Error) -> HTTPError? {
        switch error {
        case let error as OnrampError: domain(error)
        case let refusal as WebhookSubscriptionRefusal:
            switch refusal {
            case .tooMany, .tooManyKeys: invalid("parameter_invalid", refusal.description)
            case .notFound(let id):
                HTTPError(
                    status: 404, code: "resource_missing", message: "No such webhook endpoint: '\(id)'", param: "id")
            }
        default: nil
        }
    }

    /// A domain error with its kind's status, the domain's code, developer message and parameter.
    static func domain(_ error: OnrampError) -> HTTPError {
        if error.kind == .unauthenticated { return authentication(error.developerMessage, code: error.code.rawValue) }
        return invalid(error.code.rawValue, error.developerMessage, param: error.parameter, status: error.status)
    }
}

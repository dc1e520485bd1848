import HTTPServer

/// Why a Headless Onramp call failed, with the error types of Coinbase's API reference (`openapi.yaml`
/// `/v2/onramp/orders`, `/limits`, `/verifications`). Turned into the CDP error shape here, once.
enum HeadlessFailure: Error, Equatable, HTTPErrorConvertible {
    /// A field is missing or malformed.
    case invalid(param: String, message: String)
    /// No verification with this id in the project (404 `otp_verification_not_found`).
    case verificationNotFound
    /// The code is wrong, or its 10 minutes are over (400 `otp_verification_code_invalid`).
    case verificationCodeInvalid
    /// The verification was revoked after too many wrong codes, or is not verified (400
    /// `otp_verification_invalid`).
    case verificationInvalid(String)
    /// Too many codes went to this destination lately (429 `rate_limit_exceeded`, the verification
    /// endpoint's documented 429, with `Retry-After`).
    case verificationThrottled(retryAfterSeconds: Int64)
    /// The verification's 60 days are over (400 `otp_verification_expired`).
    case verificationExpired
    /// The verification is for another phone number or email (400 `otp_verification_destination_mismatch`).
    case verificationDestinationMismatch(param: String)
    /// The phone number was verified more than 60 days ago (400 `phone_number_verification_expired`).
    case phoneVerificationExpired
    /// Guest checkout is for US users paying in USD (400 `guest_region_forbidden`).
    case regionForbidden
    /// An embedded-mode order's `userAuthToken` is unknown, expired, revoked, or another partner user's (400
    /// `invalid_request`, param `userAuthToken`).
    case userAuthTokenInvalid
    /// An aggregator project's `X-Onramp-Partner-Id` names no end partner it registered (400 `invalid_request`).
    case unknownEndPartner
    /// An embedded-mode limit upgrade link is unknown, used or expired (400 `invalid_request`).
    case upgradeLinkInvalid
    /// The asset cannot be bought on this network (400 `network_not_tradable`).
    case networkNotTradable(String)
    /// The order would pass the user's weekly spending limit (429 `guest_transaction_limit`).
    case weeklyLimit(remaining: String)
    /// The user has placed the lifetime number of orders (429 `guest_transaction_count`).
    case lifetimeCount(Int)
    /// No order with this id in the project (404 `not_found`).
    case orderNotFound
    /// The `X-Idempotency-Key` came with a different request before (422 `idempotency_error`).
    case idempotencyMismatch

    var httpError: HTTPError {
        switch self {
        case .invalid(let param, let message):
            return HTTPError(status: 400, code: "invalid_request", message: message, param: param)
        case .verificationNotFound:
            return HTTPError(
                status: 404, code: "otp_verification_not_found", message: "No verification with this id.")
        case .verificationCodeInvalid:
            return HTTPError(
                status: 400, code: "otp_verification_code_invalid",
                message: "The code is wrong, or its 10 minutes are over. Start a new verification if so.")
        case .verificationInvalid(let why):
            return HTTPError(status: 400, code: "otp_verification_invalid", message: why)
        case .verificationThrottled(let seconds):
            return HTTPError(
                status: 429, code: "rate_limit_exceeded",
                message:
                    "\(Verification.initiationsPerDestination) codes went to this destination in the last 10 minutes; retry in \(seconds) s.",
                headers: ["Retry-After": String(seconds)])
        case .verificationExpired:
            return HTTPError(
                status: 400, code: "otp_verification_expired",
                message: "The verification is older than 60 days. Verify the user again.")
        case .verificationDestinationMismatch(let param):
            return HTTPError(
                status: 400, code: "otp_verification_destination_mismatch",
                message:
                    "The verification is for another \(param == "emailVerificationId" ? "email" : "phone number").",
                param: param)
        case .phoneVerificationExpired:
            return HTTPError(
                status: 400, code: "phone_number_verification_expired",
                message: "The phone number must have been verified in the last 60 days.", param: "phoneNumberVerifiedAt"
            )
        case .regionForbidden:
            return HTTPError(
                status: 400, code: "guest_region_forbidden",
                message: "Guest checkout is available to US users (a +1 phone number) paying in USD.")
        case .userAuthTokenInvalid:
            return HTTPError(
                status: 400, code: "invalid_request",
                message: "userAuthToken is unknown, expired, revoked, or another user's; create the order without it.",
                param: "userAuthToken")
        case .unknownEndPartner:
            return HTTPError(
                status: 400, code: "invalid_request",
                message:
                    "X-Onramp-Partner-Id names no end partner of this aggregator project; register it with `onramp project add-end-partner`."
            )
        case .upgradeLinkInvalid:
            return HTTPError(
                status: 400, code: "invalid_request",
                message: "This upgrade link was used, has expired or is not valid; ask the app for a new one.",
                param: "sessionToken")
        case .networkNotTradable(let why):
            return HTTPError(status: 400, code: "network_not_tradable", message: why, param: "destinationNetwork")
        case .weeklyLimit(let remaining):
            return HTTPError(
                status: 429, code: "guest_transaction_limit",
                message:
                    "This order would exceed the user's weekly guest checkout limit (\(remaining) USD left); wait until next week."
            )
        case .lifetimeCount(let limit):
            return HTTPError(
                status: 429, code: "guest_transaction_count",
                message: "The user has reached the lifetime limit of \(limit) guest checkout orders.")
        case .orderNotFound:
            return HTTPError(status: 404, code: "not_found", message: "Order with the given ID does not exist.")
        case .idempotencyMismatch:
            return HTTPError(
                status: 422, code: "idempotency_error",
                message:
                    "This X-Idempotency-Key was used with a different request, or the request was first made to a server with another data key (several instances, or a restart, without the same ONRAMP_DATA_KEY). Use a new key."
            )
        }
    }
}

package import HTTPServer
import OnrampServices

/// Each Headless failure in the CDP error shape, with the status Coinbase's API reference gives it.
extension HeadlessFailure: HTTPErrorConvertible {
    package var httpError: HTTPError {
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

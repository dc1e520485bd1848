/// Why a Headless Onramp call failed, with the error types of Coinbase's API reference (`openapi.yaml`
/// `/v2/onramp/orders`, `/limits`, `/verifications`). Turned into the CDP error shape once, at the edge (`HeadlessFailure+HTTP.swift`).
package enum HeadlessFailure: Error, Equatable {
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
}

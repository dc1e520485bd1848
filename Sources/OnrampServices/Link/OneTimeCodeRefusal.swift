/// Why a Link one-time code was not accepted. Turned into the Stripe error once, at the edge (`OneTimeCodeRefusal+HTTP.swift`).
package enum OneTimeCodeRefusal: Error, Equatable {
    /// `start_verification` was not called for the session (400 `consumer_verification_not_started`).
    case notStarted
    /// Too many wrong codes in the last 15 minutes (429 `consumer_verification_locked`).
    case locked
    /// The code is not the one sent (400 `consumer_verification_code_invalid`, parameter `code`).
    case wrongCode
}

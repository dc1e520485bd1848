package import HTTPServer
import OnrampServices

/// Each refused one-time code as the Stripe error the SDK expects.
extension OneTimeCodeRefusal: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .notStarted:
            StripeErrors.invalid(
                "consumer_verification_not_started", "Call start_verification before confirming a code.")
        case .locked:
            StripeErrors.invalid(
                "consumer_verification_locked", "Too many wrong codes; try again in 15 minutes.", status: 429)
        case .wrongCode:
            StripeErrors.invalid(
                "consumer_verification_code_invalid", "The one-time code is not correct.", param: "code")
        }
    }
}

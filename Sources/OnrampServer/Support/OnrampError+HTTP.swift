import OnrampCore
import OnrampServices

extension OnrampError {
    /// The HTTP status every family gives this kind of refusal.
    var status: Int {
        switch kind {
        case .invalid: 400
        case .unauthenticated: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .tooManyAttempts: 429
        }
    }
}

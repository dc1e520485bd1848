import OnrampCore

/// The refusals the server's services raise, as domain errors: each family's edge in `OnrampServer` (Stripe's,
/// CDP's, the pages' and OAuth's error mappings) turns them into its contract's error shape and status; no
/// service chooses a status or builds an HTTP error.
extension OnrampError {
    /// A refusal with the contract's `code` and one message, for the integrator and the user alike (the
    /// messages name only public values).
    package static func refusal(
        _ code: String, _ message: String, parameter: String? = nil, kind: Kind = .invalid
    ) -> OnrampError {
        OnrampError(
            code: Code(rawValue: code), userMessage: message, developerMessage: message, parameter: parameter,
            kind: kind)
    }

    /// The object the request names does not exist or is not the caller's (`resource_missing`,
    /// "No such …").
    package static func missing(_ what: String, parameter: String? = nil) -> OnrampError {
        refusal("resource_missing", "No such \(what).", parameter: parameter, kind: .notFound)
    }

    /// A step this server only simulates (one-time codes, phone and identity checks) was called with a
    /// live key (`livemode_not_supported`): live mode needs a real provider behind it.
    package static func liveModeUnsupported(_ what: String) -> OnrampError {
        refusal(
            "livemode_not_supported",
            "\(what) is simulated in test mode only; live keys need a real verification provider.", kind: .forbidden)
    }
}

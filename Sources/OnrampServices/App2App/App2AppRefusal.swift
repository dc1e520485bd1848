/// Why the App2App service refused a call: the seed's error table as domain values. The CDP edge
/// turns each into its HTTP form once (the CDP error mapping in `OnrampServer`); the service never chooses
/// a status.
package enum App2AppRefusal: Error, Equatable {
    /// The project does not exist or App2App is not enabled for it.
    case notEnabled
    /// The challenge is not one this call can use (unknown, spent, of the other purpose or project).
    case unknownChallenge
    /// The challenge is older than its five minutes: a new challenge and a new assertion are needed.
    case staleChallenge
    /// No App ID of the project verified the attestation; `reason` is the verifier's failure code
    /// (`no_registered_app_id` when the bundle id matched none).
    case attestationFailed(reason: String)
    /// The assertion did not verify under the registered key; `reason` is the verifier's failure code
    /// (`unknown_key` when the key is not registered, `counter_not_increased` for a replay).
    case assertionFailed(reason: String)
    /// An `Idempotency-Key` reused with a different purchase.
    case idempotencyKeyReused
    /// A development App Attest key asked for a session outside the sandbox (`partnerUserRef` not `sandbox-…`).
    case developmentKeyOutsideSandbox
    /// The client address or the project is over its mobile rate limit; retry after this many seconds.
    case rateLimited(retryAfterSeconds: Int)
}

import OnrampStore

/// An idempotency key sent with a create, and the fingerprint of the request it came with (an HMAC of the
/// request's body, or the validated purchase it asks for): a retry under the key must repeat the request.
package struct IdempotencyClaim: Sendable, Equatable {
    /// The caller's key, as sent.
    package let key: String
    /// What identifies the request the key came with.
    package let fingerprint: String

    /// A claim of `key` for the request identified by `fingerprint`.
    package init(key: String, fingerprint: String) {
        self.key = key
        self.fingerprint = fingerprint
    }
}

/// How a create honours an idempotency key kept with what it made (CDP's purchase challenges, Headless
/// orders and verifications): the first call creates, storing the key and fingerprint with its object under
/// a unique index per project; a retry of the same request answers what the first made and does nothing
/// else; the key with another request is refused with the family's refusal; a parallel retry whose insert
/// lost the race to the index answers as a retry. (Stripe's `Idempotency-Key` replays the first response
/// instead, as Stripe documents it; its edge keeps those responses.)
package enum IdempotentCreation {
    /// Runs `create` for `claim` (always, without one). `find` looks up what the claim's key made before
    /// with the fingerprint it was made under, `replay` answers it to the retry, and `mismatch` is the
    /// family's refusal of a key reused with another request.
    package static func run<Earlier, Made>(
        _ claim: IdempotencyClaim?, mismatch: @autoclosure () -> any Error,
        find: (_ key: String) throws -> (earlier: Earlier, fingerprint: String?)?,
        replay: (Earlier) throws -> Made, create: () throws -> Made
    ) throws -> Made {
        guard let claim else { return try create() }
        func retried() throws -> Made? {
            guard let found = try find(claim.key) else { return nil }
            guard found.fingerprint == claim.fingerprint else { throw mismatch() }
            return try replay(found.earlier)
        }
        if let earlier = try retried() { return earlier }
        do {
            return try create()
        } catch let error as StoreError where error.code == .constraintViolation {
            // A parallel request with the same key inserted first: answer as its retry.
            if let earlier = try retried() { return earlier }
            throw error
        }
    }
}

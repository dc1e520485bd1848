import AppAttest
import Foundation
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The App2App mobile endpoints: registration challenges and App Attest key registration, purchase
/// challenges, and attested single-use purchase sessions.
package struct App2AppService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    /// The roots an attestation's certificate chain must end in (Apple's App Attest root).
    package let appAttestRoots: [X509Certificate]
    package let rateLimits: MobileRateLimits
    /// Where the handoff page is served (`http://127.0.0.1:8080`).
    package let publicBaseURL: String
    /// The key session tokens are sealed with, derived from the data key.
    private let tokenSealingKey: [UInt8]
    package let publicKeys = PublicKeyCache()

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        catalogue = context.catalogue
        appAttestRoots = context.appAttestRoots
        rateLimits = context.mobileRateLimits
        publicBaseURL = context.publicBaseURL
        tokenSealingKey = HMACSHA256.authenticationCode(
            key: context.dataKey, message: Array("app2app-session-token".utf8))
    }

    // MARK: - Challenges

    /// `POST …/attestation/challenges`: a registration challenge.
    package func createRegistrationChallenge(projectId: String) throws -> IssuedChallenge {
        _ = try loadEnabledProject(projectId)
        let bytes = ids.randomBytes(32)
        let record = try database.transaction { connection in
            try ChallengeRepository(connection: connection).insert(
                id: Base64URL.encode(bytes, padded: false), projectId: projectId, purpose: .registration, purchase: nil,
                idempotencyKey: nil, now: nowMilliseconds)
        }
        return IssuedChallenge(bytes: bytes, expiresAt: record.expiresAt)
    }

    /// `POST …/challenges`: a purchase challenge carrying validated purchase fields.
    /// A retry under the same `idempotencyKey` with the same purchase gets the same challenge while it can still
    /// be used; the key with another purchase is refused.
    package func createPurchaseChallenge(
        projectId: String, purchase: PurchaseRequest, idempotencyKey: String?
    ) throws -> IssuedChallenge {
        let project = try loadEnabledProject(projectId)
        _ = try purchase.validate(for: project, catalogue: catalogue)
        let stored = purchase.json.serializedString
        let bytes = ids.randomBytes(32)
        let now = nowMilliseconds
        let record = try IdempotentCreation.run(
            idempotencyKey.map { IdempotencyClaim(key: $0, fingerprint: stored) },
            mismatch: App2AppRefusal.idempotencyKeyReused,
            find: { key in
                try database.read {
                    try ChallengeRepository(connection: $0).find(projectId: projectId, idempotencyKey: key)
                }.map { ($0, $0.purchase) }
            },
            replay: { existing in
                // A retry gets the same challenge only while it can still be used.
                guard existing.usedAt == nil, now <= existing.expiresAt else { throw App2AppRefusal.staleChallenge }
                return existing
            },
            create: {
                try database.transaction { connection in
                    try ChallengeRepository(connection: connection).insert(
                        id: Base64URL.encode(bytes, padded: false), projectId: projectId,
                        purpose: .purchase, purchase: stored, idempotencyKey: idempotencyKey, now: now)
                }
            })
        return IssuedChallenge(bytes: Base64URL.decode(record.id) ?? bytes, expiresAt: record.expiresAt)
    }

    // MARK: - Registration

    /// `POST|PUT …/attestation/registrations[/{keyId}]`: verifies an App Attest attestation against the
    /// project's App IDs and upserts the key.
    /// `projectIdFromPath` is the project the seed's path names (the challenge must be of it).
    package func register(_ request: KeyRegistrationRequest, projectIdFromPath: String?) throws
        -> RegisteredAttestationKey
    {
        let (challengeText, keyId, bundleId) = (request.challenge, request.keyId, request.bundleId)
        let now = nowMilliseconds
        let challenge = try loadChallenge(challengeText, purpose: .registration, now: now)
        if let projectIdFromPath, projectIdFromPath != challenge.projectId {
            throw App2AppRefusal.unknownChallenge
        }
        let project = try loadEnabledProject(challenge.projectId)
        let candidates = project.appIds.filter { appId in
            bundleId.map { appId.hasSuffix("." + $0) && appId.dropFirst(11) == $0 } ?? true
        }
        let environments = project.allowedEnvironments
        var verified: (appId: String, result: VerifiedAttestation)?
        var lastFailure: AppAttestError?
        search: for appId in candidates {
            let verifier = AttestationVerifier(
                appId: appId, allowedEnvironments: environments, trustedRoots: appAttestRoots)
            for hash in ChallengeRepository.clientDataHashes(forChallengeText: challengeText) {
                do {
                    verified = (
                        appId,
                        try verifier.verify(
                            attestationObject: request.attestationObject, keyId: keyId, clientDataHash: hash,
                            at: clock.now())
                    )
                    break search
                } catch {
                    // A nonce mismatch under one spelling of the challenge says only that the device hashed
                    // the other one: the failure under the spelling it used is the one to report.
                    if lastFailure == nil || error.code != .nonceMismatch { lastFailure = error }
                }
            }
        }
        guard let verified else {
            // A failed attestation spends its challenge: each attempt costs the caller a new challenge.
            _ = try database.transaction { connection in
                try ChallengeRepository(connection: connection).consume(id: challenge.id, now: now)
            }
            throw App2AppRefusal.attestationFailed(reason: lastFailure?.code.rawValue ?? "no_registered_app_id")
        }
        // A verified attestation of one of the project's apps: only now does the call count against the
        // project's budget (anyone can get a challenge and send junk; that spends only their address's).
        try rateLimits.admit(projectId: challenge.projectId, at: clock.now())
        try database.transaction { connection in
            guard try ChallengeRepository(connection: connection).consume(id: challenge.id, now: now) else {
                throw App2AppRefusal.unknownChallenge
            }
            try AttestKeyRepository(connection: connection).upsert(
                projectId: project.id, appId: verified.appId, keyId: keyId,
                publicKey: Base64.encode(verified.result.publicKeyX963),
                environment: verified.result.environment, receipt: Base64.encode(verified.result.receipt),
                now: now)
        }
        return RegisteredAttestationKey(
            keyId: keyId, appId: verified.appId, attestedAt: Timestamp.rfc3339(milliseconds: now))
    }

    // MARK: - Sessions

    /// What a purchase session request acts in, found in one read before anything is decided: the challenge
    /// it names, the challenge's project, the project's records of the request's key and the project's
    /// test-clock offset. The edge learns the project from it (for the request log, refusals included) before
    /// ``createSession(_:in:)`` runs.
    package struct PurchaseSessionScope {
        fileprivate let loaded: ChallengeRepository.Loaded
        /// The project the challenge was issued in.
        package var projectId: String { loaded.challenge.projectId }
    }

    /// The scope of `request`: its challenge with the challenge's project, key records and clock; a challenge
    /// that is not one of ours is refused (`unknownChallenge`) with nothing written.
    package func sessionScope(for request: PurchaseSessionRequest) throws -> PurchaseSessionScope {
        guard let challengeId = ChallengeRepository.id(forChallengeText: request.challenge),
            let loaded = try ChallengeRepository.load(id: challengeId, keyId: request.keyId, from: database)
        else { throw App2AppRefusal.unknownChallenge }
        return PurchaseSessionScope(loaded: loaded)
    }

    /// `POST /platform/v2/onramp/mobile/sessions`: verifies the purchase assertion and returns the
    /// single-use `onrampUrl`. Idempotent on the challenge. Runs in the project's time (its test clock).
    package func createSession(_ request: PurchaseSessionRequest, in scope: PurchaseSessionScope) throws
        -> OnrampURLSession
    {
        try TestClocks.bound(offsetMilliseconds: scope.loaded.clockOffset) {
            try createSession(request, loaded: scope.loaded)
        }
    }

    /// What a session request's one read finds: its challenge, the challenge's project, the project's
    /// records of the request's key, and the project's test-clock offset.
    private func createSession(_ request: PurchaseSessionRequest, loaded: ChallengeRepository.Loaded) throws
        -> OnrampURLSession
    {
        let (challengeText, keyId, assertion) = (request.challenge, request.keyId, request.assertionObject)
        let now = nowMilliseconds
        let (challenge, storedProject, keys) = (loaded.challenge, loaded.project, loaded.keys)
        guard challenge.purpose == .purchase, let purchaseText = challenge.purchase else {
            throw App2AppRefusal.unknownChallenge
        }
        // A stale challenge is reported as such first (the seed's error table), whatever the key.
        guard challenge.usedAt != nil || now <= challenge.expiresAt else { throw App2AppRefusal.staleChallenge }
        // A known purchase challenge and a key registered in its project: from here on the call counts
        // against the project's budget (a flood of made-up challenges or keys does not).
        guard !keys.isEmpty else { throw App2AppRefusal.assertionFailed(reason: "unknown_key") }
        try rateLimits.admit(projectId: challenge.projectId, at: clock.now())

        // A retry on an attested challenge returns the same URL (after checking the assertion's key).
        if challenge.usedAt != nil {
            return try retrySession(
                challenge: challenge, keys: keys, keyId: keyId, assertion: assertion, challengeText: challengeText,
                now: now)
        }
        let project = try Self.enabled(storedProject)
        let purchase = try PurchaseRequest(stored: purchaseText)
        let (key, counter) = try verifyAssertion(
            assertion, keys: keys, previousCounter: { $0.counter }, challengeText: challengeText)
        if key.environment == .development && !purchase.isSandbox {
            throw App2AppRefusal.developmentKeyOutsideSandbox
        }
        let quote = try purchase.validate(for: project, catalogue: catalogue)
        let token = Base64URL.encode(ids.randomBytes(32), padded: false)
        let stored = StoredQuote(quote)
        let consuming = ChallengeRepository.consuming(id: challenge.id, now: now)
        let advancing = AttestKeyRepository.advancing(
            projectId: project.id, appId: key.appId, keyId: keyId, to: counter)
        let inserting = PurchaseSessionRepository.inserting(
            token: token, tokenSealed: try sealed(token, challengeId: challenge.id), challengeId: challenge.id,
            projectId: project.id, keyId: keyId, environment: key.environment.rawValue, assertionCounter: counter,
            purchase: purchaseText, quote: stored.json.serializedString, sandbox: purchase.isSandbox, now: now)
        do {
            // The three statements in one round trip on PostgreSQL, their effects checked after: a throw
            // rolls all three back.
            try database.transaction { connection in
                let (consumed, advanced, _) = try connection.run(consuming, advancing, inserting)
                guard consumed else { throw ChallengeAttestedFirst() }
                guard advanced else { throw App2AppRefusal.assertionFailed(reason: "counter_not_increased") }
            }
        } catch let error as StoreError where error.code == .constraintViolation {
            // The session's challenge is unique: another request's session for it, committed first.
            return try retryAfterRace(
                challenge: challenge, keys: keys, keyId: keyId, assertion: assertion, challengeText: challengeText,
                now: now, otherwise: error)
        } catch is ChallengeAttestedFirst {
            return try retryAfterRace(
                challenge: challenge, keys: keys, keyId: keyId, assertion: assertion, challengeText: challengeText,
                now: now, otherwise: App2AppRefusal.unknownChallenge)
        }
        return sessionResponse(token: token, quote: stored)
    }

    /// Thrown inside a session's write when its challenge was already used, to roll the write back.
    private struct ChallengeAttestedFirst: Error {}

    /// The answer when another request attested the challenge first: its retry, once the challenge reads
    /// as used; `otherwise` when it does not.
    private func retryAfterRace(
        challenge: ChallengeRepository.Record, keys: [AttestKeyRepository.Record], keyId: String, assertion: [UInt8],
        challengeText: String, now: Int64, otherwise failure: any Error
    ) throws -> OnrampURLSession {
        guard
            let used = try database.read({ try ChallengeRepository(connection: $0).find(id: challenge.id) }),
            used.usedAt != nil
        else { throw failure }
        return try retrySession(
            challenge: used, keys: keys, keyId: keyId, assertion: assertion, challengeText: challengeText, now: now)
    }

    /// The session an attested challenge already has, after checking the assertion with `keys` (the
    /// challenge project's records of `keyId`).
    private func retrySession(
        challenge: ChallengeRepository.Record, keys: [AttestKeyRepository.Record], keyId: String, assertion: [UInt8],
        challengeText: String, now: Int64
    ) throws -> OnrampURLSession {
        guard
            let session = try database.read({
                try PurchaseSessionRepository(connection: $0).find(challengeId: challenge.id)
            }),
            session.keyId == keyId
        else { throw App2AppRefusal.unknownChallenge }
        guard now < session.expiresAt else { throw App2AppRefusal.staleChallenge }
        // The same assertion may be replayed for this challenge: accept a counter equal to the one it used.
        _ = try verifyAssertion(
            assertion, keys: keys, previousCounter: { _ in session.assertionCounter - 1 }, challengeText: challengeText)
        // A token sealed under another data key (this process started without `ONRAMP_DATA_KEY`, or another
        // instance has a different one) cannot be given back: for this instance the challenge is spent.
        guard let token = try token(of: session) else { throw App2AppRefusal.unknownChallenge }
        return sessionResponse(token: token, quote: try StoredQuote(stored: session.quote))
    }

    /// `token` sealed for storage, bound to its challenge.
    private func sealed(_ token: String, challengeId: String) throws -> String {
        Base64.encode(try AESGCM.seal(Array(token.utf8), key: tokenSealingKey, associatedData: Array(challengeId.utf8)))
    }

    /// The token of a stored session, unsealed (a session stored before its sealed copy existed is
    /// stored under the token itself); nil when it was sealed under another data key.
    private func token(of session: PurchaseSessionRepository.Record) throws -> String? {
        guard let stored = session.tokenSealed else { return session.key }
        guard let sealed = Base64.decode(stored) else {
            throw StoreError(.typeMismatch, "a purchase session's sealed token is not base64")
        }
        guard
            let opened = try? AESGCM.open(sealed, key: tokenSealingKey, associatedData: Array(session.challengeId.utf8))
        else { return nil }
        guard let token = UTF8Text.string(opened) else {
            throw StoreError(.typeMismatch, "a purchase session's sealed token is not text")
        }
        return token
    }

    private func sessionResponse(token: String, quote: StoredQuote) -> OnrampURLSession {
        OnrampURLSession(onrampUrl: onrampURL(token: token), quote: quote.onrampQuote(catalogue: catalogue))
    }

    /// The handoff URL for a session token.
    package func onrampURL(token: String) -> String {
        "\(publicBaseURL)\(PagePaths.handoff)?sessionToken=\(token)"
    }

    private func verifyAssertion(
        _ assertion: [UInt8], keys: [AttestKeyRepository.Record],
        previousCounter: (AttestKeyRepository.Record) -> Int64,
        challengeText: String
    ) throws(App2AppRefusal) -> (AttestKeyRepository.Record, Int64) {
        var lastFailure = "unknown_key"
        for key in keys {
            guard let publicKey = publicKeys.key(base64: key.publicKey) else { continue }
            let verifier = AssertionVerifier(appId: key.appId)
            let previous = UInt32(clamping: max(previousCounter(key), 0))
            for hash in ChallengeRepository.clientDataHashes(forChallengeText: challengeText) {
                do {
                    let result = try verifier.verify(
                        assertionObject: assertion, publicKey: publicKey, previousCounter: previous,
                        clientDataHash: hash)
                    return (key, Int64(result.counter))
                } catch {
                    lastFailure = error.code.rawValue
                    if error.code == .counterNotIncreased { break }
                }
            }
        }
        throw .assertionFailed(reason: lastFailure)
    }

    // MARK: - Shared checks

    private func loadChallenge(_ text: String, purpose: ChallengeRepository.Purpose, now: Int64) throws
        -> ChallengeRepository.Record
    {
        guard let id = ChallengeRepository.id(forChallengeText: text),
            let challenge = try database.read({ try ChallengeRepository(connection: $0).find(id: id) }),
            challenge.purpose == purpose, challenge.usedAt == nil
        else { throw App2AppRefusal.unknownChallenge }
        guard now <= challenge.expiresAt else { throw App2AppRefusal.staleChallenge }
        return challenge
    }

    /// The project, when it exists and App2App is enabled.
    package func loadEnabledProject(_ id: String) throws -> Project {
        guard id.utf8.count <= 64 else { throw App2AppRefusal.notEnabled }
        return try Self.enabled(try database.read { try ProjectRepository(connection: $0).find(id) })
    }

    /// The project if it exists and is enabled for App2App.
    package static func enabled(_ project: Project?) throws(App2AppRefusal) -> Project {
        guard let project, project.app2AppEnabled else { throw .notEnabled }
        return project
    }

    /// The project of the challenge `text` names and that project's test-clock offset in milliseconds,
    /// when it is a known challenge: one read for both (registrations and sessions run in that time).
    package func projectClock(ofChallenge text: String) throws -> (projectId: String, offsetMilliseconds: Int64)? {
        guard let id = ChallengeRepository.id(forChallengeText: text) else { return nil }
        return try database.read { connection in
            try ChallengeRepository(connection: connection).findWithClockOffset(id: id).map { found in
                (found.challenge.projectId, found.clockOffset)
            }
        }
    }
}

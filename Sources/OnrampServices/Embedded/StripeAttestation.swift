import AppAttest
import Foundation
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// App Attest as StripeCore's `StripeAttest` speaks it (`StripeCore/…/Attestation/StripeAttest.swift` and
/// `StripeAttestBackend.swift`, commit c57767ad):
///
/// - `ios_challenge` (`app_id` = bundle id, `device_id`, `key_id`) answers `challenge` and
///   `initial_attestation_required` (whether this key still has to be attested);
/// - `ios_attest` sends the attestation object made over `SHA256(challenge)` (UTF-8);
/// - each Link mobile lookup and sign-up then carries `app_id`, `device_id`, `key_id` and
///   `ios_assertion_object`, an assertion over `SHA256({"challenge":"<a fresh challenge>"})` (sorted-keys JSON).
///
/// The SDK never sends the challenge back, so the latest unused one issued to the device key is the one
/// checked, and spent. Attestations are verified with ``AttestationVerifier`` against the project's App IDs
/// whose bundle part is `app_id`, assertions with ``AssertionVerifier`` and the stored counter. In test mode a
/// request without the fields, or with the SDK's test-mode assertion (`key_id=TestKeyID`, bytes `01 02 03`),
/// passes as it does at Stripe; live mode needs a verified assertion. Failures answer
/// `link_failed_to_attest_request`, the code that makes the SDK reset its key.
///
/// Android attests with Play Integrity instead (stripe-android `stripe-attestation`, `IntegrityStandardRequestManager.kt`
/// at 1a9b1e79): a token minted on the device, sent as `android_verification_token` with `app_id` (the package
/// name) on the same calls, and no challenge endpoint. Its verdict can only be decoded by Google's servers, so the
/// sandbox cannot check it: test mode takes any token, live mode takes a present one (with its `app_id`) and
/// refuses a call that carries neither attestation.
package struct StripeAttestation: Sendable {
    /// How long a challenge can be used.
    package static let challengeLifetimeMilliseconds: Int64 = 300_000
    /// `StripeAttest.testmodeAssertion()`.
    package static let testModeKeyId = "TestKeyID"
    package static let testModeAssertion = "AQID"

    package let context: ServerContext

    /// A device key as the SDK names it.
    package struct DeviceKey {
        package let appId: String
        package let deviceId: String
        package let keyId: String

        package init(_ fields: RequestFields) throws {
            appId = try fields.required("app_id", maxLength: 255)
            deviceId = try fields.required("device_id", maxLength: 128)
            keyId = try fields.required("key_id", maxLength: 64)
        }
    }

    /// `POST ios_challenge`.
    package func challenge(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let key = try DeviceKey(RequestFields.stripe(body))
        let challenge = context.ids.base62(length: 32)
        let now = context.nowMilliseconds
        let attested = try context.database.transaction { connection -> Bool in
            try connection.execute(
                """
                INSERT INTO stripe_attest_challenges (challenge, project_id, app_id, device_id, key_id, expires_at,
                    created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(challenge), .text(caller.projectId), .text(key.appId),
                    .text(key.deviceId), .text(key.keyId), .integer(now + Self.challengeLifetimeMilliseconds),
                    .integer(now),
                ])
            return try storedKey(connection, caller: caller, key: key) != nil
        }
        return ["challenge": .string(challenge), "initial_attestation_required": .bool(!attested)]
    }

    /// `POST ios_attest`: verifies and keeps the key; answers an empty object.
    package func attest(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = RequestFields.stripe(body)
        let key = try DeviceKey(fields)
        guard let object = Base64.decode(try fields.required("attestation_object", maxLength: 16_384)) else {
            throw fields.invalid("attestation_object", "attestation_object is not base64.")
        }
        let now = context.nowMilliseconds
        // A failed attestation still spends its challenge: each attempt costs the caller a new one.
        let failure = try context.database.transaction { connection -> String? in
            let challenge = try spendChallenge(connection, caller: caller, key: key, now: now)
            let project = try ProjectRepository(connection: connection).find(caller.projectId)
            let environments = project?.allowedEnvironments ?? []
            var lastFailure: AppAttestError?
            for appId in Self.fullAppIds(of: key.appId, in: project?.appIds ?? []) {
                let verifier = AttestationVerifier(
                    appId: appId, allowedEnvironments: environments, trustedRoots: context.appAttestRoots)
                let verified: VerifiedAttestation
                do throws(AppAttestError) {
                    verified = try verifier.verify(
                        attestationObject: object, keyId: key.keyId, clientDataHash: SHA256.hash(Array(challenge.utf8)),
                        at: context.clock.now())
                } catch {
                    lastFailure = error
                    continue
                }
                try connection.execute(
                    """
                    INSERT INTO stripe_attest_keys (project_id, app_id, key_id, device_id, full_app_id, public_key,
                        environment, counter, attested_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
                    ON CONFLICT (project_id, app_id, key_id) DO UPDATE SET device_id = excluded.device_id,
                        full_app_id = excluded.full_app_id, public_key = excluded.public_key,
                        environment = excluded.environment, counter = 0, attested_at = excluded.attested_at
                    """,
                    [
                        .text(caller.projectId), .text(key.appId), .text(key.keyId), .text(key.deviceId),
                        .text(appId), .text(Base64.encode(verified.publicKeyX963)),
                        .text(verified.environment.rawValue), .integer(now),
                    ])
                return nil
            }
            return lastFailure?.code.rawValue ?? "no_registered_app_id"
        }
        if let failure { throw Self.failure("attestation", reason: failure) }
        return [:]
    }

    /// Checks the assertion fields a Link mobile lookup or sign-up carries (see the type's rules).
    package func verifyIfPresent(_ fields: RequestFields, caller: StripeCaller) throws {
        let assertionText = try fields.optional("ios_assertion_object", maxLength: 4096)
        guard let assertionText else {
            if let token = try fields.optional("android_verification_token", maxLength: 16_384), !token.isEmpty {
                guard try fields.optional("app_id", maxLength: 255)?.isEmpty == false else {
                    throw fields.invalid("app_id", "app_id (the Android package name) must come with the token.")
                }
                return
            }
            guard caller.livemode else { return }
            throw Self.failure("assertion", reason: "missing_assertion")
        }
        let key = try DeviceKey(fields)
        if !caller.livemode, key.keyId == Self.testModeKeyId, assertionText == Self.testModeAssertion { return }
        guard let assertion = Base64.decode(assertionText) else {
            throw fields.invalid("ios_assertion_object", "ios_assertion_object is not base64.")
        }
        let now = context.nowMilliseconds
        // A failed check still spends the challenge, so a guess costs the caller a new one.
        let outcome = try context.database.transaction { connection -> AppAttestError? in
            let challenge = try spendChallenge(connection, caller: caller, key: key, now: now)
            guard let stored = try storedKey(connection, caller: caller, key: key),
                let publicKeyBytes = Base64.decode(stored.publicKey),
                let publicKey = try? P256.PublicKey(x963Representation: publicKeyBytes)
            else { return AppAttestError(code: .invalidInput, message: "key not attested") }
            let clientData = #"{"challenge":"\#(challenge)"}"#
            let verified: VerifiedAssertion
            do throws(AppAttestError) {
                verified = try AssertionVerifier(appId: stored.fullAppId).verify(
                    assertionObject: assertion, publicKey: publicKey, previousCounter: UInt32(clamping: stored.counter),
                    clientDataHash: SHA256.hash(Array(clientData.utf8)))
            } catch {
                return error
            }
            let advanced = try connection.execute(
                """
                UPDATE stripe_attest_keys SET counter = ? WHERE project_id = ? AND app_id = ? AND key_id = ?
                    AND counter < ?
                """,
                [
                    .integer(Int64(verified.counter)), .text(caller.projectId), .text(key.appId), .text(key.keyId),
                    .integer(Int64(verified.counter)),
                ])
            return advanced == 1 ? nil : AppAttestError(code: .counterNotIncreased, message: "raced")
        }
        if let outcome { throw Self.failure("assertion", reason: outcome.code.rawValue) }
    }

    /// The project App IDs (`TEAMID.bundle`) whose bundle part is `bundleId`.
    package static func fullAppIds(of bundleId: String, in appIds: [String]) -> [String] {
        appIds.filter { appId in
            guard let dot = appId.firstIndex(of: ".") else { return false }
            return appId[appId.index(after: dot)...] == bundleId
        }
    }

    private struct StoredKey {
        let fullAppId: String
        let publicKey: String
        let counter: Int64
    }

    private func storedKey(_ connection: any SQLConnection, caller: StripeCaller, key: DeviceKey) throws -> StoredKey? {
        try connection.query(
            "SELECT * FROM stripe_attest_keys WHERE project_id = ? AND app_id = ? AND key_id = ?",
            [.text(caller.projectId), .text(key.appId), .text(key.keyId)]
        ).first.map {
            StoredKey(
                fullAppId: try $0.string("full_app_id"), publicKey: try $0.string("public_key"),
                counter: try $0.int("counter"))
        }
    }

    /// Marks the device key's latest live challenge used and returns it. (Challenges are kept in clear: they
    /// are nonces the device signs over, not credentials.)
    private func spendChallenge(_ connection: any SQLConnection, caller: StripeCaller, key: DeviceKey, now: Int64)
        throws -> String
    {
        guard
            let challenge = try connection.query(
                """
                SELECT challenge FROM stripe_attest_challenges
                WHERE project_id = ? AND app_id = ? AND device_id = ? AND key_id = ? AND used_at IS NULL
                    AND expires_at > ?
                ORDER BY created_at DESC LIMIT 1
                """, [.text(caller.projectId), .text(key.appId), .text(key.deviceId), .text(key.keyId), .integer(now)]
            ).first?.string("challenge"),
            try connection.execute(
                "UPDATE stripe_attest_challenges SET used_at = ? WHERE challenge = ? AND used_at IS NULL",
                [.integer(now), .text(challenge)]) == 1
        else { throw Self.failure("challenge", reason: "no_live_challenge") }
        return challenge
    }

    /// 400 `link_failed_to_attest_request` (`StripeAttest.isLinkAssertionError`).
    package static func failure(_ what: String, reason: String) -> FieldError {
        FieldError(
            status: 400, code: "link_failed_to_attest_request",
            message: "The App Attest \(what) did not verify (\(reason)).", type: "invalid_request_error",
            reason: reason)
    }

    /// A value with each stored property given.
    package init(context: ServerContext) {
        self.context = context
    }
}

import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// One OTP verification of a phone number or email (`onramp_verification_<uuid>`): a code valid for 10
/// minutes, then, once submitted, a verification the orders may cite for 60 days.
package struct Verification: Sendable, Equatable {
    /// Where the code goes.
    package enum Channel: String, Sendable {
        case sms, email
    }

    package static let idPrefix = "onramp_verification_"
    /// How long the code may be submitted.
    package static let codeLifetimeMilliseconds: Int64 = 10 * 60_000
    /// How long a verified destination counts as verified.
    package static let verifiedLifetimeMilliseconds: Int64 = 60 * 86_400_000
    /// Wrong codes after which the verification is revoked.
    package static let maximumAttempts = 5
    /// Codes one phone number or email may be sent within any code lifetime (10 minutes), whichever
    /// partners ask: a person is not flooded with messages, nor a code guessed across many verifications.
    package static let initiationsPerDestination = 5
    /// The code every sandbox verification sends (no SMS or email leaves this server).
    package static let sandboxCode = "000000"

    package let id: String
    package let projectId: String
    package let channel: Channel
    package let destination: String
    package let codeHash: String
    package var attempts: Int
    package let otpExpiresAt: Int64
    package var verifiedAt: Int64?
    package var verificationExpiresAt: Int64?
    package let createdAt: Int64

    /// Whether `text` reads as an email address: one `@` between a non-empty local part and a domain
    /// with a dot, no spaces or controls (the one rule for orders and verifications alike).
    package static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
    }

    /// Whether `id` has the API's shape (`^onramp_verification_<lower-case uuid>$`).
    package static func isWellFormedId(_ id: String) -> Bool {
        guard id.hasPrefix(idPrefix) else { return false }
        let uuid = Array(id.utf8.dropFirst(idPrefix.utf8.count))
        guard uuid.count == 36 else { return false }
        return uuid.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index)
                ? byte == UInt8(ascii: "-")
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }

    /// `{verificationId, otpExpiresAt}` (cdp-sdk `OnrampVerificationInitiation`).
    package var initiation: OnrampVerification {
        OnrampVerification(verificationId: id, otpExpiresAt: Timestamp.rfc3339(milliseconds: otpExpiresAt))
    }

    /// `{verificationId, verificationExpiresAt}` (cdp-sdk `OnrampVerificationConfirmation`).
    package var confirmation: OnrampVerification {
        OnrampVerification(
            verificationId: id,
            verificationExpiresAt: Timestamp.rfc3339(milliseconds: verificationExpiresAt ?? otpExpiresAt))
    }
}

/// `POST /v2/onramp/verifications` `{channel, destination}`.
package struct InitiateVerificationRequest: Sendable, Equatable {
    package let channel: Verification.Channel
    package let destination: String

    /// A request made by the server itself (the embedded-mode page's code).
    package init(channel: Verification.Channel, destination: String) {
        self.channel = channel
        self.destination = destination
    }

    package init(fields: RequestFields) throws(FieldError) {
        let channelText = try fields.required("channel", maxLength: 8)
        guard let channel = Verification.Channel(rawValue: channelText) else {
            throw fields.invalid("channel", "channel must be sms or email.")
        }
        self.channel = channel
        let destination = try fields.required("destination", maxLength: 254)
        switch channel {
        case .sms:
            guard (try? PhoneNumber(e164: destination)) != nil else {
                throw fields.invalid("destination", "An sms destination is an E.164 phone number such as +14155550123.")
            }
            self.destination = destination
        case .email:
            guard Verification.isEmailAddress(destination) else {
                throw fields.invalid("destination", "An email destination is an email address.")
            }
            self.destination = destination.lowercased()
        }
    }
}

/// `POST /v2/onramp/verifications/{verificationId}/submit` `{otpCode}`.
package struct SubmitVerificationRequest: Sendable, Equatable {
    package let otpCode: String

    /// A code the embedded-mode page took.
    package init(otpCode: String) {
        self.otpCode = otpCode
    }

    package init(fields: RequestFields) throws(FieldError) {
        let code = try fields.required("otpCode", maxLength: 6)
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw fields.invalid("otpCode", "otpCode is six digits.")
        }
        otpCode = code
    }
}

/// The verifications table, on the transaction's connection.
package struct VerificationRepository {
    package let connection: any SQLConnection

    /// The verifications table's `X-Idempotency-Key` columns (cdp-sdk 1.51.0 `initiate_onramp_verification`).
    package static let idempotencyMigrations = [
        Migration(
            version: 610, name: "onramp_verification_idempotency",
            sql: """
                ALTER TABLE onramp_verifications ADD COLUMN idempotency_key TEXT;
                ALTER TABLE onramp_verifications ADD COLUMN request_hash TEXT;
                CREATE UNIQUE INDEX onramp_verifications_idempotency
                    ON onramp_verifications(project_id, idempotency_key);
                """)
    ]

    /// Stores `verification`, made by a project of `livemode` at the real time `sentAt`, under the caller's
    /// idempotency key and the HMAC of its request when it sent one.
    package func insert(
        _ verification: Verification, livemode: Bool, sentAt: Int64, idempotency: IdempotencyClaim? = nil
    ) throws {
        try connection.execute(
            """
            INSERT INTO onramp_verifications (id, project_id, channel, destination, code_hash, attempts,
                otp_expires_at, created_at, livemode, sent_at, idempotency_key, request_hash)
            VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(verification.id), .text(verification.projectId), .text(verification.channel.rawValue),
                .text(verification.destination), .text(verification.codeHash), .integer(verification.otpExpiresAt),
                .integer(verification.createdAt), .integer(livemode ? 1 : 0), .integer(sentAt),
                idempotency.map { .text($0.key) } ?? .null, idempotency.map { .text($0.fingerprint) } ?? .null,
            ])
    }

    /// The verification `projectId` made under idempotency `key`, with the HMAC of the request that made it.
    package func find(idempotencyKey key: String, projectId: String) throws -> (
        verification: Verification, hash: String?
    )? {
        guard
            let id = try connection.query(
                "SELECT id, request_hash FROM onramp_verifications WHERE project_id = ? AND idempotency_key = ?",
                [.text(projectId), .text(key)]
            ).first
        else { return nil }
        return try find(id: try id.string("id"), projectId: projectId).map { ($0, id.optionalString("request_hash")) }
    }

    /// How many codes partners of `livemode` sent to `destination` on `channel` since the real time `since`,
    /// and when (in real time) the oldest of them went: a test-mode project, whatever its clock, neither
    /// counts towards nor is held back by live mode's throttle.
    package func initiations(channel: Verification.Channel, destination: String, livemode: Bool, since: Int64) throws
        -> (
            count: Int, oldest: Int64?
        )
    {
        let row = try connection.query(
            """
            SELECT COUNT(*) AS sent, MIN(sent_at) AS oldest FROM onramp_verifications
            WHERE channel = ? AND destination = ? AND livemode = ? AND sent_at > ?
            """, [.text(channel.rawValue), .text(destination), .integer(livemode ? 1 : 0), .integer(since)]
        ).first
        return (Int(try row?.int("sent") ?? 0), row?.optionalInt("oldest"))
    }

    package func find(id: String, projectId: String) throws -> Verification? {
        try connection.query(
            "SELECT * FROM onramp_verifications WHERE id = ? AND project_id = ?", [.text(id), .text(projectId)]
        ).first.map { row in
            Verification(
                id: try row.string("id"), projectId: try row.string("project_id"),
                channel: Verification.Channel(rawValue: try row.string("channel")) ?? .sms,
                destination: try row.string("destination"), codeHash: try row.string("code_hash"),
                attempts: Int(try row.int("attempts")), otpExpiresAt: try row.int("otp_expires_at"),
                verifiedAt: row.optionalInt("verified_at"),
                verificationExpiresAt: row.optionalInt("verification_expires_at"), createdAt: try row.int("created_at"))
        }
    }

    /// Takes one of the verification's attempts before its code is judged, in one statement, so
    /// parallel guesses cannot pass ``Verification/maximumAttempts``; false when none is left.
    package func takeAttempt(id: String) throws -> Bool {
        try connection.execute(
            "UPDATE onramp_verifications SET attempts = attempts + 1 WHERE id = ? AND attempts < ? AND verified_at IS NULL",
            [.text(id), .integer(Int64(Verification.maximumAttempts))]) == 1
    }

    /// Marks it verified, once.
    package func markVerified(id: String, at now: Int64, until expiry: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE onramp_verifications SET verified_at = ?, verification_expires_at = ?
            WHERE id = ? AND verified_at IS NULL
            """, [.integer(now), .integer(expiry), .text(id)]) == 1
    }
}

/// OTP verification of the phone numbers and emails that guest checkout orders rely on. In this sandbox
/// no message leaves the server and the code is always ``Verification/sandboxCode``.
package struct VerificationService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    /// Real time, which the per-person throttle is judged in.
    package let realClock: any OnrampCore.Clock
    /// The key codes are hashed with, derived from the data key.
    private let codeKey: [UInt8]

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        realClock = context.realClock
        codeKey = HMACSHA256.authenticationCode(key: context.dataKey, message: Array("onramp-verification-code".utf8))
    }

    /// Sends a code to the request's destination, under the per-person throttle. With `idempotency` (the
    /// caller's `X-Idempotency-Key` and the HMAC of its body) a retry answers the verification the first call
    /// made and sends no second code; the same key with another body is refused (422 `idempotency_error`).
    package func initiate(
        _ request: InitiateVerificationRequest, projectId: String, idempotency: IdempotencyClaim? = nil
    ) throws -> Verification {
        try IdempotentCreation.run(
            idempotency, mismatch: HeadlessFailure.idempotencyMismatch,
            find: { key in
                try database.read {
                    try VerificationRepository(connection: $0).find(idempotencyKey: key, projectId: projectId)
                }.map { ($0.verification, $0.hash) }
            },
            replay: { $0 }, create: { try send(request, projectId: projectId, idempotency: idempotency) })
    }

    private func send(
        _ request: InitiateVerificationRequest, projectId: String, idempotency: IdempotencyClaim?
    ) throws -> Verification {
        let now = nowMilliseconds
        let id = Verification.idPrefix + ids.uuid().lowercased()
        let verification = Verification(
            id: id, projectId: projectId, channel: request.channel,
            destination: request.destination, codeHash: codeHash(Verification.sandboxCode, id: id),
            attempts: 0, otpExpiresAt: now + Verification.codeLifetimeMilliseconds, verifiedAt: nil,
            verificationExpiresAt: nil, createdAt: now)
        // The throttle protects a person, whichever partners ask: judged in real time, per mode.
        let realNow = Timestamp.milliseconds(realClock.now())
        try database.transaction { connection in
            let verifications = VerificationRepository(connection: connection)
            let livemode = try TestClockRepository(connection: connection).mode(of: projectId) ?? false
            let window = Verification.codeLifetimeMilliseconds
            let sent = try verifications.initiations(
                channel: request.channel, destination: request.destination, livemode: livemode,
                since: realNow - window)
            if sent.count >= Verification.initiationsPerDestination {
                let wait = ((sent.oldest ?? realNow) + window - realNow + 999) / 1000
                throw HeadlessFailure.verificationThrottled(retryAfterSeconds: max(1, wait))
            }
            try verifications.insert(verification, livemode: livemode, sentAt: realNow, idempotency: idempotency)
        }
        return verification
    }

    package func submit(id: String, _ request: SubmitVerificationRequest, projectId: String) throws -> Verification {
        guard Verification.isWellFormedId(id) else { throw HeadlessFailure.verificationNotFound }
        let now = nowMilliseconds
        enum Outcome { case verified(Verification), wrongCode, revoked }
        let outcome: Outcome = try database.transaction { connection in
            let verifications = VerificationRepository(connection: connection)
            guard var verification = try verifications.find(id: id, projectId: projectId) else {
                throw HeadlessFailure.verificationNotFound
            }
            // A repeated submit of the right code gets the same confirmation.
            if verification.verifiedAt != nil {
                return ConstantTime.equals(
                    Array(codeHash(request.otpCode, id: id).utf8), Array(verification.codeHash.utf8))
                    ? .verified(verification) : .wrongCode
            }
            guard try verifications.takeAttempt(id: id) else {
                // No attempt left, or a parallel submit verified it meanwhile.
                if let verified = try verifications.find(id: id, projectId: projectId), verified.verifiedAt != nil {
                    return .verified(verified)
                }
                return .revoked
            }
            guard now < verification.otpExpiresAt,
                ConstantTime.equals(Array(codeHash(request.otpCode, id: id).utf8), Array(verification.codeHash.utf8))
            else { return .wrongCode }
            let expiry = now + Verification.verifiedLifetimeMilliseconds
            guard try verifications.markVerified(id: id, at: now, until: expiry) else {
                return .verified(try verifications.find(id: id, projectId: projectId) ?? verification)
            }
            verification.verifiedAt = now
            verification.verificationExpiresAt = expiry
            return .verified(verification)
        }
        switch outcome {
        case .verified(let verification): return verification
        case .wrongCode: throw HeadlessFailure.verificationCodeInvalid
        case .revoked:
            throw HeadlessFailure.verificationInvalid(
                "The verification was revoked after \(Verification.maximumAttempts) wrong codes; start a new one.")
        }
    }

    /// The stored form of a code: an HMAC under a key derived from the data key, bound to the
    /// verification (six digits hashed plainly would fall to a table of a million).
    private func codeHash(_ code: String, id: String) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: codeKey, message: Array("\(id)\n\(code)".utf8)))
    }

    /// Checks a verification an order cites: verified, within its 60 days, for `destination`.
    package static func check(
        _ connection: any SQLConnection, id: String, param: String, channel: Verification.Channel,
        destination: String, projectId: String, now: Int64
    ) throws {
        guard Verification.isWellFormedId(id),
            let verification = try VerificationRepository(connection: connection).find(id: id, projectId: projectId)
        else { throw HeadlessFailure.verificationNotFound }
        guard verification.channel == channel, verification.verifiedAt != nil else {
            throw HeadlessFailure.verificationInvalid(
                "\(param) names a verification that is pending or of another channel.")
        }
        guard now < verification.verificationExpiresAt ?? 0 else { throw HeadlessFailure.verificationExpired }
        guard verification.destination == destination else {
            throw HeadlessFailure.verificationDestinationMismatch(param: param)
        }
    }
}

import OnrampCore
import OnrampStore
import OnrampWire

/// Test-mode identity verification (L2): starting one for a customer, the hosted page's chosen outcome,
/// and the verification-page API the SDK's identity sheet drives with the verification's ephemeral key.
/// Outcomes move the customer's document status; only the first outcome of a verification counts.
package struct IdentityVerificationService: Sendable, UsesServiceEnvironment {
    /// How long an ephemeral key works after the verification starts.
    package static let ephemeralKeyLifetimeMilliseconds: Int64 = 3_600_000

    package let environment: ServiceEnvironment

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
    }

    private var now: Int64 { Timestamp.milliseconds(clock.now()) }

    /// A started verification and its two secrets, shown once.
    package struct Started: Sendable {
        package let id: String
        /// The hosted page's token.
        package let pageToken: String
        /// The key the SDK's identity sheet calls the verification-page API with.
        package let ephemeralKey: String
    }

    /// Opens a verification of `customer` (test mode only; not for an already verified document).
    package func start(customer: CryptoCustomer, livemode: Bool) throws -> Started {
        guard !livemode else { throw OnrampError.liveModeUnsupported("Identity verification") }
        guard customer.documentStatus != .verified else {
            throw OnrampError.refusal(
                "identity_verification_already_verified", "The customer's identity document is already verified.")
        }
        let started = Started(
            id: ids.id(prefix: IdPrefix.identityVerification), pageToken: ids.base62(length: 32),
            ephemeralKey: "ek_test_" + ids.base62(length: 32))
        try database.transaction {
            try IdentityVerificationRepository(connection: $0).insert(
                id: started.id, customer: customer, pageTokenHash: APIKeyRepository.secretHash(started.pageToken),
                ephemeralKeyHash: APIKeyRepository.secretHash(started.ephemeralKey), now: now)
        }
        return started
    }

    /// The status of verification `id` when `token` is its page token.
    package func pageStatus(id: String, token: String) throws -> String? {
        guard id.utf8.count <= 64, token.utf8.count <= 64,
            let access = try database.read({ try IdentityVerificationRepository(connection: $0).pageAccess(id: id) }),
            APIKeyRepository.secretMatches(token, storedHash: access.pageTokenHash)
        else { return nil }
        return access.status
    }

    /// Records `outcome` for verification `id`, setting the customer's document status when given;
    /// `false` when the verification already had one.
    package func record(
        _ outcome: String, documentStatus: VerificationStatus?, verification id: String, submitted: Bool = false
    )
        throws -> Bool
    {
        try database.transaction { connection in
            let verifications = IdentityVerificationRepository(connection: connection)
            guard try verifications.record(outcome, documentStatus: documentStatus, verification: id) else {
                return false
            }
            if submitted { try verifications.markSubmitted(id) }
            return true
        }
    }

    /// The verification `ephemeralKey` opens, while the key is young enough.
    package func verification(ephemeralKey: String) throws -> VerificationPageState? {
        let found = try database.read {
            try IdentityVerificationRepository(connection: $0).find(
                ephemeralKeyHash: APIKeyRepository.secretHash(ephemeralKey))
        }
        guard let (verification, createdAt) = found, createdAt + Self.ephemeralKeyLifetimeMilliseconds > now else {
            return nil
        }
        return verification
    }

    /// Applies `update` to the open verification `id` and answers it as changed.
    package func collect(_ update: VerificationPageDataUpdate, verification id: String) throws -> VerificationPageState
    {
        try database.transaction { connection in
            let verifications = IdentityVerificationRepository(connection: connection)
            guard let verification = try verifications.find(id: id), verification.status == "requires_input",
                !verification.submitted
            else {
                throw OnrampError.refusal("verification_page_submitted", "This verification was already submitted.")
            }
            var collected = verification.collected.subtracting(update.cleared)
            if update.biometricConsent { collected.insert("biometric_consent") }
            for file in update.files {
                guard try verifications.fileExists(file.fileId, verification: id) else {
                    throw OnrampError.missing("file: \(file.fileId)", parameter: file.parameter)
                }
                collected.insert(file.field)
            }
            let stored = VerificationPageState.requiredFields.filter(collected.contains)
            try verifications.setCollected(stored, verification: id)
            return VerificationPageState(
                id: id, status: verification.status, submitted: false, collected: Set(stored))
        }
    }

    /// Records an upload of `size` bytes for `purpose` to verification `id`; answers the file's id and
    /// when it was made (stored milliseconds).
    package func upload(purpose: String, size: Int, verification id: String) throws -> (id: String, created: Int64) {
        let fileId = ids.id(prefix: IdPrefix.file)
        let now = now
        try database.transaction {
            try IdentityVerificationRepository(connection: $0).insertFile(
                id: fileId, verification: id, purpose: purpose, size: size, now: now)
        }
        return (fileId, now)
    }
}

import OnrampCrypto

/// Verifies App Attest assertion objects (contract `appattest.md`, assertion steps 1 to 4).
public struct AssertionVerifier: Sendable {
    /// The expected App ID, `teamID.bundleID`.
    public let appId: String
    private let rpIdHash: [UInt8]

    /// Creates a verifier for `appId`.
    public init(appId: String) {
        self.appId = appId
        rpIdHash = SHA256.hash(appId)
    }

    /// Verifies `assertionObject` with the key stored at attestation and the stored counter; returns the new
    /// counter to store.
    public func verify(
        assertionObject: [UInt8], publicKey: P256.PublicKey, previousCounter: UInt32, clientDataHash: [UInt8]
    ) throws(AppAttestError) -> VerifiedAssertion {
        let object = try AssertionObject(assertionObject)
        let authData = object.authenticatorData
        // Steps 1-2: ECDSA over SHA256(nonce), nonce = SHA256(authenticatorData ‖ clientDataHash).
        let nonce = SHA256.hash(authData.rawValue + clientDataHash)
        guard publicKey.isValidSignature(derRepresentation: object.signature, for: nonce) else {
            throw AppAttestError(code: .invalidSignature, message: "assertion signature does not verify")
        }
        // Step 3: App ID and counter.
        guard ConstantTime.equals(authData.rpIdHash, rpIdHash) else {
            throw AppAttestError(code: .rpIdMismatch, message: "rpIdHash is not SHA256 of the App ID")
        }
        guard authData.signCount > previousCounter else {
            throw AppAttestError(
                code: .counterNotIncreased, message: "signCount \(authData.signCount) ≤ stored \(previousCounter)")
        }
        return VerifiedAssertion(counter: authData.signCount, authenticatorData: authData)
    }
}

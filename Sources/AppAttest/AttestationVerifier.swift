import Foundation
import OnrampCrypto
import OnrampWire

/// Verifies App Attest attestation objects following "Validating apps that connect to your server"
/// (contract `appattest.md`, steps 1 to 7), over the bytes exactly as received.
public struct AttestationVerifier: Sendable {
    /// The expected App ID, `teamID.bundleID`.
    public let appId: String
    /// Environments whose keys are accepted.
    public let allowedEnvironments: Set<AppAttestEnvironment>
    /// Trust anchors for the x5c chain (Apple's root in production; a test CA only in sandboxes).
    public let trustedRoots: [X509Certificate]

    /// Creates a verifier; by default both environments are accepted and only Apple's root is trusted.
    public init(
        appId: String, allowedEnvironments: Set<AppAttestEnvironment> = [.development, .production],
        trustedRoots: [X509Certificate] = [AppleAppAttestRoot.certificate]
    ) {
        self.appId = appId
        self.allowedEnvironments = allowedEnvironments
        self.trustedRoots = trustedRoots
    }

    /// Verifies `attestationObject` for `keyId` (standard base64, as `DCAppAttestService` returns it) and
    /// `clientDataHash`, with certificate validity checked at `time`.
    public func verify(
        attestationObject: [UInt8], keyId: String, clientDataHash: [UInt8], at time: Date
    ) throws(AppAttestError) -> VerifiedAttestation {
        guard let keyIdBytes = Base64.decode(keyId), keyIdBytes.count == 32 else {
            throw AppAttestError(code: .invalidInput, message: "keyId is not base64 of 32 bytes")
        }
        // Step 1: structure.
        let object = try AttestationObject(attestationObject)
        let authData = object.authenticatorData
        guard let credential = authData.attestedCredential else {
            throw AppAttestError(code: .invalidFormat, message: "no attested credential data")
        }
        // Step 2: chain leaf → intermediate → trusted root at `time`.
        guard object.certificates.count == 2 else {
            throw AppAttestError(code: .certificateChain, message: "x5c must hold exactly [leaf, intermediate]")
        }
        let leaf: X509Certificate
        let intermediate: X509Certificate
        do {
            leaf = try X509Certificate(derRepresentation: object.certificates[0])
            intermediate = try X509Certificate(derRepresentation: object.certificates[1])
        } catch {
            throw AppAttestError(code: .certificateChain, message: "unparsable x5c certificate")
        }
        guard !leaf.isCertificateAuthority else {
            throw AppAttestError(code: .certificateChain, message: "x5c[0] is a CA certificate, not a leaf")
        }
        do {
            try leaf.verifyChain(intermediates: [intermediate], trustedRoots: trustedRoots, at: time)
        } catch let error as CryptoError {
            throw AppAttestError(code: .certificateChain, message: error.message)
        } catch {
            throw AppAttestError(code: .certificateChain, message: "chain verification failed")
        }
        // Step 3: nonce.
        let nonce = SHA256.hash(authData.rawValue + clientDataHash)
        guard let extensionValue = leaf.extensionValue(oid: AppAttestNonceExtension.oid),
            let certifiedNonce = AppAttestNonceExtension.decode(extensionValue)
        else { throw AppAttestError(code: .nonceMismatch, message: "leaf has no well-formed nonce extension") }
        guard ConstantTime.equals(nonce, certifiedNonce) else {
            throw AppAttestError(code: .nonceMismatch, message: "nonce differs from the certified nonce")
        }
        // Step 4: key id.
        let publicKey: P256.PublicKey
        do {
            publicKey = try leaf.p256PublicKey
        } catch {
            throw AppAttestError(code: .certificateChain, message: "leaf key is not P-256")
        }
        guard ConstantTime.equals(SHA256.hash(publicKey.x963Representation), keyIdBytes) else {
            throw AppAttestError(code: .keyIdMismatch, message: "keyId is not SHA256 of the leaf public key")
        }
        // Step 5: authenticator data.
        guard ConstantTime.equals(authData.rpIdHash, SHA256.hash(appId)) else {
            throw AppAttestError(code: .rpIdMismatch, message: "rpIdHash is not SHA256 of the App ID")
        }
        guard authData.signCount == 0 else {
            throw AppAttestError(code: .nonzeroCounter, message: "signCount is \(authData.signCount)")
        }
        guard let environment = AppAttestEnvironment(aaguid: credential.aaguid) else {
            throw AppAttestError(code: .unknownAAGUID, message: "aaguid names no App Attest environment")
        }
        guard allowedEnvironments.contains(environment) else {
            throw AppAttestError(code: .environmentNotAllowed, message: "\(environment.rawValue) keys are not allowed")
        }
        guard ConstantTime.equals(credential.credentialId, keyIdBytes) else {
            throw AppAttestError(code: .credentialIdMismatch, message: "credentialId is not the key id")
        }
        guard credential.publicKeyX963 == publicKey.x963Representation else {
            throw AppAttestError(code: .publicKeyMismatch, message: "COSE key differs from the leaf key")
        }
        // Step 7: what to keep.
        return VerifiedAttestation(
            keyId: keyId, publicKeyX963: publicKey.x963Representation, publicKey: publicKey,
            environment: environment, receipt: object.receipt, counter: 0, authenticatorData: authData)
    }
}

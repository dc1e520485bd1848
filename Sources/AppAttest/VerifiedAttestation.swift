import OnrampCrypto

/// The result of a successful attestation: what the server stores for the key.
public struct VerifiedAttestation: Sendable {
    /// The key id (standard base64 of SHA256 of the public key), as the device reports it.
    public let keyId: String
    /// The key's uncompressed EC point (65 bytes).
    public let publicKeyX963: [UInt8]
    /// The key, ready for assertion verification.
    public let publicKey: P256.PublicKey
    /// The environment read from the aaguid.
    public let environment: AppAttestEnvironment
    /// Apple's receipt, for fraud-metric requests.
    public let receipt: [UInt8]
    /// The counter to store: always 0 after attestation.
    public let counter: UInt32
    /// The parsed authenticator data (including iOS 27 extensions).
    public let authenticatorData: AuthenticatorData
}

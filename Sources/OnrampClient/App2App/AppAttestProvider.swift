/// The device's App Attest service, as `DCAppAttestService` offers it: `DeviceCheckAppAttestProvider`
/// on Apple platforms, `SoftwareAppAttestProvider` (`OnrampBackend`) on Linux, the Simulator and in tests.
public protocol AppAttestProvider: Sendable {
    /// Whether the device can make App Attest keys.
    var isSupported: Bool { get async }
    /// Creates a key and returns its id (standard base64 of the public key's SHA-256).
    func generateKey() async throws -> String
    /// Attests `keyId` for `clientDataHash`; returns the CBOR attestation object.
    func attestKey(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8]
    /// Signs an assertion for `clientDataHash` with `keyId`; throws ``App2AppError/Code/invalidKey`` when the
    /// device no longer has the key.
    func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8]
}

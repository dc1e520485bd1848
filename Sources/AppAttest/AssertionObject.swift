/// A parsed App Attest assertion object: `{signature, authenticatorData}`.
public struct AssertionObject: Sendable, Equatable {
    /// DER ECDSA signature over SHA256(nonce).
    public let signature: [UInt8]
    /// The authenticator data (37 bytes, or more with iOS 27 extensions).
    public let authenticatorData: AuthenticatorData

    /// Parses `bytes`; throws ``AppAttestError/Code/invalidFormat`` or ``AppAttestError/Code/truncated``.
    public init(_ bytes: [UInt8]) throws(AppAttestError) {
        let root: CBORValue
        do {
            root = try CBORReader.decode(bytes)
        } catch {
            throw AppAttestError(error, context: "assertion object")
        }
        guard let signature = root["signature"]?.bytesValue, let authData = root["authenticatorData"]?.bytesValue else {
            throw AppAttestError(code: .invalidFormat, message: "missing signature or authenticatorData")
        }
        self.signature = signature
        authenticatorData = try AuthenticatorData(authData, attestation: false)
    }
}

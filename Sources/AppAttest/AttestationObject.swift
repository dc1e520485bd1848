/// A parsed App Attest attestation object:
/// `{fmt: "apple-appattest", attStmt: {x5c: [leaf, intermediate], receipt}, authData}`.
/// Parsing checks structure only; ``AttestationVerifier`` checks the contents.
public struct AttestationObject: Sendable, Equatable {
    /// The only accepted `fmt`.
    public static let format = "apple-appattest"

    /// x5c, DER certificates, leaf first.
    public let certificates: [[UInt8]]
    /// The App Attest receipt (opaque PKCS#7 from Apple).
    public let receipt: [UInt8]
    /// The authenticator data.
    public let authenticatorData: AuthenticatorData

    /// Parses `bytes`; throws ``AppAttestError/Code/invalidFormat`` or ``AppAttestError/Code/truncated``.
    public init(_ bytes: [UInt8]) throws(AppAttestError) {
        let root: CBORValue
        do {
            root = try CBORReader.decode(bytes)
        } catch {
            throw AppAttestError(error, context: "attestation object")
        }
        guard case .map = root else { throw AppAttestError(code: .invalidFormat, message: "not a CBOR map") }
        guard root["fmt"]?.textValue == Self.format else {
            throw AppAttestError(code: .invalidFormat, message: "fmt is not \(Self.format)")
        }
        guard let statement = root["attStmt"], case .map = statement,
            let chain = statement["x5c"]?.arrayValue, !chain.isEmpty,
            let receipt = statement["receipt"]?.bytesValue,
            let authData = root["authData"]?.bytesValue
        else { throw AppAttestError(code: .invalidFormat, message: "missing attStmt.x5c, attStmt.receipt or authData") }
        var certificates: [[UInt8]] = []
        for item in chain {
            guard let der = item.bytesValue else {
                throw AppAttestError(code: .invalidFormat, message: "x5c entry is not a byte string")
            }
            certificates.append(der)
        }
        self.certificates = certificates
        self.receipt = receipt
        authenticatorData = try AuthenticatorData(authData, attestation: true)
    }
}

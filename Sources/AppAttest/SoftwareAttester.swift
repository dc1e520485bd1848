import Foundation
import OnrampCrypto

/// Produces attestation and assertion objects in exactly Apple's App Attest format (same CBOR, same leaf
/// nonce extension, same authenticator data), signed by a ``TestCertificateAuthority``. For the Simulator,
/// Linux and CI; verifiers accept its objects only when the authority's root is trusted.
public struct SoftwareAttester: Sendable {
    /// Deliberate deviations from a genuine object, for verifier tests of fields the nonce protects.
    public struct Tampering: Sendable {
        /// `fmt` to write.
        public var format = AttestationObject.format
        /// signCount of the attestation's authenticator data.
        public var signCount: UInt32 = 0
        /// aaguid override.
        public var aaguid: [UInt8]?
        /// credentialId override.
        public var credentialId: [UInt8]?
        /// App ID whose hash is written as rpIdHash.
        public var appId: String?
        /// A CBOR extensions map appended after the COSE key (sets flag 0x80, as iOS 27 does).
        public var extensions: CBORValue?

        /// No tampering.
        public init() {}
    }

    /// Receipt bytes written into attestations; Apple's receipts are PKCS#7 that only Apple can sign.
    public static let receipt = Array("onrampkit-software-attester-receipt".utf8)

    /// The signing authority.
    public let authority: TestCertificateAuthority
    /// The App ID (`teamID.bundleID`) the keys belong to.
    public let appId: String
    /// The environment written as aaguid.
    public let environment: AppAttestEnvironment

    /// Creates an attester.
    public init(authority: TestCertificateAuthority, appId: String, environment: AppAttestEnvironment = .development) {
        self.authority = authority
        self.appId = appId
        self.environment = environment
    }

    /// Generates a new key (as `DCAppAttestService.generateKey`).
    public func generateKey() throws -> SoftwareAttestKey {
        try SoftwareAttestKey()
    }

    /// Attests `key` for `clientDataHash` at `time` (as `DCAppAttestService.attestKey`): returns the CBOR
    /// attestation object.
    public func attestKey(
        _ key: SoftwareAttestKey, clientDataHash: [UInt8], at time: Date, tampering: Tampering = Tampering()
    ) throws -> [UInt8] {
        let publicKey = key.privateKey.publicKey
        let point = publicKey.x963Representation
        let credentialId = tampering.credentialId ?? key.keyIdBytes
        let coseKey = CBORWriter.encode(
            .map([
                CBORMapEntry(.integer(1), .integer(2)), CBORMapEntry(.integer(3), .integer(-7)),
                CBORMapEntry(.integer(-1), .integer(1)), CBORMapEntry(.integer(-2), .bytes(Array(point[1..<33]))),
                CBORMapEntry(.integer(-3), .bytes(Array(point[33..<65]))),
            ]))
        var authData = header(
            appId: tampering.appId ?? appId, extended: tampering.extensions != nil, signCount: tampering.signCount)
        authData += tampering.aaguid ?? environment.aaguid
        authData += [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xFF)] + credentialId + coseKey
        if let extensions = tampering.extensions { authData += CBORWriter.encode(extensions) }
        let leaf = try authority.issueLeaf(
            publicKey: publicKey, nonce: SHA256.hash(authData + clientDataHash), at: time)
        return CBORWriter.encode(
            .map([
                CBORMapEntry(.text("fmt"), .text(tampering.format)),
                CBORMapEntry(
                    .text("attStmt"),
                    .map([
                        CBORMapEntry(
                            .text("x5c"),
                            .array([
                                .bytes(leaf.derRepresentation),
                                .bytes(authority.intermediateCertificate.derRepresentation),
                            ])),
                        CBORMapEntry(.text("receipt"), .bytes(Self.receipt)),
                    ])),
                CBORMapEntry(.text("authData"), .bytes(authData)),
            ]))
    }

    /// Signs an assertion for `clientDataHash` (as `DCAppAttestService.generateAssertion`), incrementing the
    /// key's counter; `extensions` appends an iOS 27 style extensions map.
    public func generateAssertion(
        _ key: inout SoftwareAttestKey, clientDataHash: [UInt8], extensions: CBORValue? = nil
    ) throws -> [UInt8] {
        key.counter += 1
        var authData = header(appId: appId, extended: extensions != nil, signCount: key.counter)
        if let extensions { authData += CBORWriter.encode(extensions) }
        let nonce = SHA256.hash(authData + clientDataHash)
        let signature = try key.privateKey.signature(for: nonce).derRepresentation
        return CBORWriter.encode(
            .map([
                CBORMapEntry(.text("signature"), .bytes(signature)),
                CBORMapEntry(.text("authenticatorData"), .bytes(authData)),
            ]))
    }

    private func header(appId: String, extended: Bool, signCount: UInt32) -> [UInt8] {
        let flags = AuthenticatorData.attestedCredentialDataFlag | (extended ? AuthenticatorData.extensionDataFlag : 0)
        return SHA256.hash(appId) + [flags]
            + [
                UInt8(signCount >> 24), UInt8(signCount >> 16 & 0xFF), UInt8(signCount >> 8 & 0xFF),
                UInt8(signCount & 0xFF),
            ]
    }
}

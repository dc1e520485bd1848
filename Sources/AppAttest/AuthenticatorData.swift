/// WebAuthn-style authenticator data as App Attest uses it:
/// `rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)`, then for attestations the attested credential
/// data (`aaguid (16) ‖ credIdLen (2) ‖ credentialId ‖ COSE key`), then optionally a CBOR extensions map
/// (iOS 27 sets flags 0xC0 and appends one, also on assertions).
public struct AuthenticatorData: Sendable, Equatable {
    /// The bytes exactly as received; nonces are computed over these.
    public let rawValue: [UInt8]
    /// SHA256 of the App ID.
    public let rpIdHash: [UInt8]
    /// The flags byte.
    public let flags: UInt8
    /// The signature counter.
    public let signCount: UInt32
    /// Attested credential data (attestations only).
    public let attestedCredential: AttestedCredentialData?
    /// The trailing CBOR extensions map, when present.
    public let extensions: CBORValue?

    /// Flag bit: attested credential data included.
    public static let attestedCredentialDataFlag: UInt8 = 0x40
    /// Flag bit: extension data included.
    public static let extensionDataFlag: UInt8 = 0x80

    /// Parses authenticator data. `attestation` demands attested credential data after the header (App Attest
    /// sets the 0x40 flag on assertions too, so the flag alone does not decide). Anything after that must be one
    /// CBOR map of extensions.
    public init(_ bytes: [UInt8], attestation: Bool) throws(AppAttestError) {
        guard bytes.count >= 37 else {
            throw AppAttestError(code: .truncated, message: "authenticator data shorter than 37 bytes")
        }
        rawValue = bytes
        rpIdHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if attestation {
            guard bytes.count >= offset + 18 else {
                throw AppAttestError(code: .truncated, message: "attested credential data cut short")
            }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard bytes.count >= offset + length else {
                throw AppAttestError(code: .truncated, message: "credentialId cut short")
            }
            let credentialId = Array(bytes[offset..<offset + length])
            offset += length
            let keyStart = offset
            let key: CBORValue
            do {
                var reader = try CBORReader(bytes, offset: offset)
                key = try reader.readValue()
                offset = reader.offset
            } catch {
                throw AppAttestError(error, context: "COSE key")
            }
            attestedCredential = AttestedCredentialData(
                aaguid: aaguid, credentialId: credentialId, publicKey: key,
                publicKeyBytes: Array(bytes[keyStart..<offset]))
        } else {
            attestedCredential = nil
        }
        if offset < bytes.count {
            let trailing: CBORValue
            do {
                trailing = try CBORReader.decode(Array(bytes[offset...]))
            } catch {
                throw AppAttestError(error, context: "authenticator data extensions")
            }
            guard case .map = trailing else {
                throw AppAttestError(code: .invalidFormat, message: "authenticator data extensions are not a map")
            }
            extensions = trailing
        } else {
            extensions = nil
        }
    }
}

/// The attested credential data of an attestation's authenticator data.
public struct AttestedCredentialData: Sendable, Equatable {
    /// 16 bytes naming the environment.
    public let aaguid: [UInt8]
    /// The credential id (App Attest: the key id, SHA256 of the public key).
    public let credentialId: [UInt8]
    /// The COSE_Key map.
    public let publicKey: CBORValue
    /// The COSE_Key bytes as received.
    public let publicKeyBytes: [UInt8]

    /// The uncompressed EC point 0x04 ‖ x ‖ y of an EC2 P-256 COSE key (kty 2, crv 1), or `nil`.
    public var publicKeyX963: [UInt8]? {
        guard publicKey[.integer(1)]?.intValue == 2, publicKey[.integer(-1)]?.intValue == 1,
            let x = publicKey[.integer(-2)]?.bytesValue, let y = publicKey[.integer(-3)]?.bytesValue,
            x.count == 32, y.count == 32
        else { return nil }
        return [0x04] + x + y
    }
}

import OnrampCrypto
import OnrampWire

/// A key registration (``AttestationKeyRegistration`` on the wire) as the service takes it: decoded at
/// the edge (lengths, the one platform payload, the key id of the path or the body, the attestation's
/// bytes). Shape only: no I/O.
package struct KeyRegistrationRequest: Sendable {
    /// The registration challenge's text.
    package let challenge: String
    /// The App Attest key id.
    package let keyId: String
    /// The attestation object.
    package let attestationObject: [UInt8]
    /// The bundle id the app named, if any.
    package let bundleId: String?

    package typealias Limit = AttestationKeyRegistration.Limit

    /// Decodes `body`; `keyIdFromPath` is the key a `PUT …/registrations/{keyId}` names.
    package init(_ body: JSONValue, keyIdFromPath: String?) throws(FieldError) {
        let fields = RequestFields(body)
        challenge = try fields.required("challenge", maxLength: Limit.challenge)
        let ios = try App2AppPlatform.iosPayload(fields)
        let bodyKeyId = try ios.optional("keyId", maxLength: Limit.keyId)
        if let keyIdFromPath {
            if let bodyKeyId, bodyKeyId != keyIdFromPath {
                throw FieldError(
                    status: 400, code: "invalid_request", message: "keyId in the path and body differ.", param: "keyId")
            }
            keyId = keyIdFromPath
        } else {
            keyId = try ios.required("keyId", maxLength: Limit.keyId)
        }
        let text = try ios.required("attestation", maxLength: Limit.attestation)
        bundleId = try ios.optional("bundleId", maxLength: Limit.bundleId)
        guard let bytes = Base64.decode(text) ?? Base64URL.decode(text) else {
            throw FieldError(
                status: 400, code: "invalid_request", message: "attestation is not base64.", param: "attestation")
        }
        attestationObject = bytes
    }
}

/// A session request (``PurchaseAssertion`` on the wire) as the service takes it: decoded at the edge.
package struct PurchaseSessionRequest: Sendable {
    /// The purchase challenge's text.
    package let challenge: String
    /// The registered key that signed the assertion.
    package let keyId: String
    /// The assertion object.
    package let assertionObject: [UInt8]

    /// Decodes `body`.
    package init(_ body: JSONValue) throws(FieldError) {
        let fields = RequestFields(body)
        challenge = try fields.required("challenge", maxLength: AttestationKeyRegistration.Limit.challenge)
        let ios = try App2AppPlatform.iosPayload(fields)
        keyId = try ios.required("keyId", maxLength: AttestationKeyRegistration.Limit.keyId)
        let text = try ios.required("assertion", maxLength: PurchaseAssertion.assertionLimit)
        guard let bytes = Base64.decode(text) ?? Base64URL.decode(text) else {
            throw FieldError(
                status: 400, code: "invalid_request", message: "assertion is not base64.", param: "assertion")
        }
        assertionObject = bytes
    }
}

/// The platform payload of the mobile requests.
package enum App2AppPlatform {
    /// The `ios` payload. Coinbase's API defines exactly one of `ios` or `android`; Android (Play
    /// Integrity) is not served here, and says so rather than passing for an unknown field.
    package static func iosPayload(_ fields: RequestFields) throws(FieldError) -> RequestFields {
        let ios = try fields.object("ios")
        let android = fields.body["android"].map { !$0.isNull } ?? false
        if ios != nil && android {
            throw FieldError(
                status: 400, code: "invalid_request", message: "Provide exactly one platform payload: ios or android.",
                param: "android")
        }
        if android {
            throw FieldError(
                status: 400, code: "invalid_request",
                message:
                    "The android payload (Play Integrity) is not supported: App2App sessions need an ios payload with App Attest; Android users buy through the hosted onramp (POST /platform/v2/onramp/sessions).",
                param: "android")
        }
        guard let ios else {
            throw FieldError(status: 400, code: "invalid_request", message: "Missing required field ios.", param: "ios")
        }
        return ios
    }
}

/// A challenge the service issued: its bytes and expiry. The route writes it in its form's encoding.
package struct IssuedChallenge: Sendable, Equatable {
    /// How a challenge is written in a response.
    package enum Encoding {
        /// Unpadded base64url (the seed's endpoints).
        case base64URL
        /// Padded standard base64, 44 characters (the cdp-sdk endpoints).
        case base64
    }

    /// The 32 random bytes.
    package let bytes: [UInt8]
    /// When it expires, in milliseconds since 1970.
    package let expiresAt: Int64

    /// The wire object in `encoding`.
    package func wire(_ encoding: Encoding) -> AttestationChallenge {
        AttestationChallenge(
            challenge: encoding == .base64 ? Base64.encode(bytes) : Base64URL.encode(bytes, padded: false),
            expiresAt: Timestamp.rfc3339(milliseconds: expiresAt))
    }
}

/// The body of an App Attest key registration (seed step 1): a registration challenge and the
/// attestation the device made over `SHA-256(challenge bytes)`. Coinbase's API takes exactly one
/// platform payload; only `ios` (App Attest) is served, and an `android` payload is refused.
public struct AttestationKeyRegistration: Codable, Equatable, Sendable {
    /// The `ios` payload.
    public struct IOS: Codable, Equatable, Sendable {
        /// The App Attest key id (base64 of the key's SHA-256); may be left out when the path names it.
        public var keyId: String?
        /// The attestation object, base64 (base64url is accepted too).
        public var attestation: String
        /// The app's bundle id, narrowing the project's App IDs to the one it names.
        public var bundleId: String?

        /// Creates the payload.
        public init(keyId: String?, attestation: String, bundleId: String?) {
            self.keyId = keyId
            self.attestation = attestation
            self.bundleId = bundleId
        }
    }

    /// The registration challenge, as the server wrote it.
    public var challenge: String
    /// The App Attest payload.
    public var ios: IOS

    /// Creates a registration body.
    public init(challenge: String, ios: IOS) {
        self.challenge = challenge
        self.ios = ios
    }

    /// Limits of the fields, in UTF-8 bytes (the server refuses longer ones).
    public enum Limit {
        /// Challenges and key ids.
        public static let challenge = 64
        /// Key ids.
        public static let keyId = 64
        /// The attestation object's text (a real one is about 5.5 KB of base64).
        public static let attestation = 16384
        /// Bundle ids.
        public static let bundleId = 255
    }

    /// The `android` member, which the server refuses: App2App takes App Attest (`ios`) only.
    public static let unsupportedAndroid = APISchema(json: ["type": "null"]).described(
        "Android (Play Integrity) is not supported: any value but null is refused.")

    /// The body as the OpenAPI description states it; `keyIdRequired` is false where the path names the key.
    public static func schema(keyIdRequired: Bool) -> APISchema {
        .object(
            [
                "challenge": .string(minLength: 1, maxLength: Limit.challenge),
                "ios": .object(
                    [
                        "keyId": .string(minLength: 1, maxLength: Limit.keyId),
                        "attestation": APISchema.string(minLength: 1, maxLength: Limit.attestation).described(
                            "The App Attest attestation object, base64 or base64url."),
                        "bundleId": .string(maxLength: Limit.bundleId),
                    ], required: keyIdRequired ? ["keyId", "attestation"] : ["attestation"]),
                "android": unsupportedAndroid,
            ], required: ["challenge", "ios"])
    }
}

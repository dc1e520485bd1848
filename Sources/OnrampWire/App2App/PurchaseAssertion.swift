/// The body of an App2App session request (seed step 4): the purchase challenge and the App Attest
/// assertion the registered key made over `SHA-256(challenge bytes)`.
public struct PurchaseAssertion: Codable, Equatable, Sendable {
    /// The `ios` payload.
    public struct IOS: Codable, Equatable, Sendable {
        /// The registered key.
        public var keyId: String
        /// The assertion object, base64 (base64url is accepted too).
        public var assertion: String

        /// Creates the payload.
        public init(keyId: String, assertion: String) {
            self.keyId = keyId
            self.assertion = assertion
        }
    }

    /// The purchase challenge, as the server wrote it.
    public var challenge: String
    /// The App Attest payload.
    public var ios: IOS

    /// Creates a session body.
    public init(challenge: String, ios: IOS) {
        self.challenge = challenge
        self.ios = ios
    }

    /// The longest assertion text the server reads (a real one is under 1 KB of base64).
    public static let assertionLimit = 4096

    /// The body as the OpenAPI description states it.
    public static let schema = APISchema.object(
        [
            "challenge": .string(minLength: 1, maxLength: AttestationKeyRegistration.Limit.challenge),
            "ios": .object(
                [
                    "keyId": .string(minLength: 1, maxLength: AttestationKeyRegistration.Limit.keyId),
                    "assertion": APISchema.string(minLength: 1, maxLength: assertionLimit).described(
                        "The App Attest assertion object, base64 or base64url."),
                ], required: ["keyId", "assertion"]),
            "android": AttestationKeyRegistration.unsupportedAndroid,
        ], required: ["challenge", "ios"])
}

/// The answer to a key registration: the key, the `teamID.bundleID` its attestation matched, and when
/// the server verified it. The client stores it and skips registration while it holds one.
public struct RegisteredAttestationKey: WireObject, Codable, Equatable {
    /// The App Attest key id.
    public var keyId: String
    /// The project's App ID the attestation matched.
    public var appId: String
    /// Always `ios`.
    public var platform: String
    /// When the attestation was verified (RFC 3339).
    public var attestedAt: String

    /// Creates a registered key object.
    public init(keyId: String, appId: String, platform: String = "ios", attestedAt: String) {
        self.keyId = keyId
        self.appId = appId
        self.platform = platform
        self.attestedAt = attestedAt
    }

    public var json: JSONValue {
        [
            "appId": .string(appId), "keyId": .string(keyId), "platform": .string(platform),
            "attestedAt": .string(attestedAt),
        ]
    }

    public static let schema = APISchema.object(
        ["appId": .string, "keyId": .string, "platform": .constant("ios"), "attestedAt": .dateTime],
        required: ["appId", "keyId", "platform", "attestedAt"])
}

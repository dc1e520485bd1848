/// A challenge of the App2App mobile endpoints (registration or purchase): 32 random bytes, valid for
/// five minutes. The seed's endpoints write it as unpadded base64url, the cdp-sdk endpoints as padded
/// standard base64; a client decodes either before hashing it (`SHA-256(decoded bytes)`).
public struct AttestationChallenge: WireObject, Codable, Equatable {
    /// The challenge text.
    public var challenge: String
    /// When it stops being accepted (RFC 3339).
    public var expiresAt: String

    /// Creates a challenge object.
    public init(challenge: String, expiresAt: String) {
        self.challenge = challenge
        self.expiresAt = expiresAt
    }

    public static let schema = APISchema.object(
        [
            "challenge": APISchema.string.described(
                "32 random bytes: unpadded base64url (seed form) or padded base64 (cdp-sdk form)."),
            "expiresAt": .dateTime,
        ], required: ["challenge", "expiresAt"])
}

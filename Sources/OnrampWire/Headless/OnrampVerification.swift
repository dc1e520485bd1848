/// An OTP verification as cdp-sdk reads it: `OnrampVerificationInitiation` (`{verificationId, otpExpiresAt}`)
/// when a code is sent, `OnrampVerificationConfirmation` (`{verificationId, verificationExpiresAt}`) when it
/// is submitted. The server writes both and `HeadlessOnrampClient` decodes either.
public struct OnrampVerification: WireObject, Codable, Equatable {
    /// `onramp_verification_<uuid>`.
    public var verificationId: String
    /// Until when the code may be submitted (after starting).
    public var otpExpiresAt: String?
    /// Until when the verification counts (after submitting).
    public var verificationExpiresAt: String?

    /// Creates a verification object.
    public init(verificationId: String, otpExpiresAt: String? = nil, verificationExpiresAt: String? = nil) {
        self.verificationId = verificationId
        self.otpExpiresAt = otpExpiresAt
        self.verificationExpiresAt = verificationExpiresAt
    }

    /// `OnrampVerificationInitiation`.
    public static let initiationSchema = APISchema.object(
        ["verificationId": .string, "otpExpiresAt": .dateTime], required: ["verificationId", "otpExpiresAt"])

    /// `OnrampVerificationConfirmation`.
    public static let confirmationSchema = APISchema.object(
        ["verificationId": .string, "verificationExpiresAt": .dateTime],
        required: ["verificationId", "verificationExpiresAt"])

    /// Either form.
    public static let schema = APISchema.object(
        ["verificationId": .string, "otpExpiresAt": .dateTime, "verificationExpiresAt": .dateTime],
        required: ["verificationId"])
}

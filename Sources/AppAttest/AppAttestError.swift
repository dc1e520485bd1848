/// An App Attest verification failure. ``code`` names the failed step of the contract and is stable;
/// ``message`` is a developer explanation without secrets.
public struct AppAttestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable failure code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as a snake_case string.
        public let rawValue: String

        /// Creates a code from its string form.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code as a snake_case string.
        public var description: String { rawValue }

        /// The object is not the expected CBOR structure (including a `fmt` other than "apple-appattest").
        public static let invalidFormat = Code(rawValue: "invalid_format")
        /// The object or the authenticator data ends early.
        public static let truncated = Code(rawValue: "truncated")
        /// The x5c chain does not verify to a trusted root at the verification time.
        public static let certificateChain = Code(rawValue: "certificate_chain")
        /// SHA256(authData ‖ clientDataHash) differs from the leaf's nonce extension (or it is missing).
        public static let nonceMismatch = Code(rawValue: "nonce_mismatch")
        /// The key id is not SHA256 of the leaf's public key.
        public static let keyIdMismatch = Code(rawValue: "key_id_mismatch")
        /// `rpIdHash` is not SHA256 of the App ID.
        public static let rpIdMismatch = Code(rawValue: "rp_id_mismatch")
        /// The aaguid is neither `appattestdevelop` nor `appattest` + 7 zero bytes.
        public static let unknownAAGUID = Code(rawValue: "unknown_aaguid")
        /// The key's environment is not allowed.
        public static let environmentNotAllowed = Code(rawValue: "environment_not_allowed")
        /// The attestation's signCount is not 0.
        public static let nonzeroCounter = Code(rawValue: "nonzero_counter")
        /// The credentialId is not the key id.
        public static let credentialIdMismatch = Code(rawValue: "credential_id_mismatch")
        /// The COSE key in authData is not the leaf certificate's key.
        public static let publicKeyMismatch = Code(rawValue: "public_key_mismatch")
        /// The assertion signature does not verify with the stored key.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// The assertion's signCount is not greater than the stored counter (replay).
        public static let counterNotIncreased = Code(rawValue: "counter_not_increased")
        /// An input other than the object is unusable (e.g. a key id that is not base64 of 32 bytes).
        public static let invalidInput = Code(rawValue: "invalid_input")
    }

    /// The failure code.
    public let code: Code
    /// Developer-facing detail.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String = "") {
        self.code = code
        self.message = message
    }

    /// Maps a CBOR failure: running out of input is ``Code/truncated``, anything else ``Code/invalidFormat``.
    init(_ error: CBORError, context: String) {
        self.init(code: error.code == .truncated ? .truncated : .invalidFormat, message: "\(context): \(error)")
    }

    /// `AppAttestError(code): message`.
    public var description: String {
        message.isEmpty ? "AppAttestError(\(code))" : "AppAttestError(\(code)): \(message)"
    }
}

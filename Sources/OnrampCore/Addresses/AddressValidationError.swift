/// Why an address was refused.
public struct AddressValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason an address is invalid.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The address is empty or longer than 128 characters.
        case badLength = "bad_length"
        /// The address lacks the prefix its format requires.
        case badPrefix = "bad_prefix"
        /// The address holds a character outside its alphabet.
        case badCharacter = "bad_character"
        /// The checksum (EIP-55, Base58Check, Bech32, CRC16) does not match.
        case badChecksum = "bad_checksum"
        /// The decoded payload has the wrong size.
        case badPayloadLength = "bad_payload_length"
        /// The version byte, human-readable part or witness version is not allowed.
        case badVersion = "bad_version"
    }

    /// The reason.
    public let reason: Reason
    /// The format the address was checked against.
    public let format: AddressFormat

    /// Creates an error.
    public init(reason: Reason, format: AddressFormat) {
        self.reason = reason
        self.format = format
    }

    /// The stable code, always ``OnrampError/Code/invalidAddress``.
    public var code: OnrampError.Code { .invalidAddress }

    /// The same failure as an ``OnrampError`` for the given parameter.
    public func onrampError(parameter: String? = nil) -> OnrampError {
        OnrampError(
            code: .invalidAddress, userMessage: "The wallet address is not valid for this network.",
            developerMessage: "Address is not a valid \(format.rawValue) address (\(reason.rawValue)).",
            parameter: parameter)
    }

    /// The format and reason; the address itself is not repeated.
    public var description: String { "AddressValidationError(\(format.rawValue), \(reason.rawValue))" }
}

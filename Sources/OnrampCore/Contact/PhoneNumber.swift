/// A phone number in E.164 form (`+` then 8 to 15 digits, no leading zero).
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number, for example `+14155550123`.
    public let e164: String

    /// Validates an E.164 string.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/invalidPhoneFormat``.
    public init(e164 string: String) throws {
        let digits = string.utf8.dropFirst()
        guard string.utf8.first == UInt8(ascii: "+"), (8...15).contains(digits.count),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            digits.first != UInt8(ascii: "0")
        else {
            throw OnrampError(
                code: .invalidPhoneFormat, userMessage: "Enter the phone number with its country code.",
                developerMessage: "Phone numbers must be E.164: '+' followed by 8 to 15 digits.",
                parameter: "phone_number")
        }
        self.e164 = string
    }

    /// The number with all but the last 4 digits masked, safe for logs and messages.
    public var description: String {
        "+" + String(repeating: "•", count: e164.count - 5) + e164.suffix(4)
    }
}

extension PhoneNumber: Codable {
    /// Decodes and validates an E.164 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(e164: text)
        } catch let error as OnrampError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.developerMessage)
        }
    }

    /// Encodes the E.164 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(e164)
    }
}

/// Validates wallet addresses per ``AddressFormat``. Pure and allocation-light; no network access.
public enum AddressValidator {
    /// The longest address accepted by any format.
    public static let maximumLength = 128

    /// Validates `address` for `format` and returns what it is.
    ///
    /// - Throws: ``AddressValidationError``.
    @discardableResult
    public static func validate(_ address: String, format: AddressFormat) throws(AddressValidationError)
        -> AddressKind
    {
        guard !address.isEmpty, address.utf8.count <= maximumLength else {
            throw AddressValidationError(reason: .badLength, format: format)
        }
        switch format {
        case .evm: return try validateEVM(address)
        case .solana: return try validateSolana(address)
        case .bitcoin: return try validateBitcoin(address)
        case .stellar: return try validateStellar(address)
        case .hex32: return try validateHex32(address)
        case .xrpl: return try validateXRPL(address)
        }
    }

    /// The EIP-55 checksummed form of a 20-byte hex address given without `0x` (any case).
    public static func eip55Checksummed(hexDigits: String) -> String {
        "0x" + String(decoding: eip55Digits(Array(hexDigits.utf8)), as: UTF8.self)
    }

    /// EIP-55 over ASCII hex digits: lowercased, then each letter whose Keccak-256 nibble is ≥ 8 is
    /// uppercased.
    private static func eip55Digits(_ digits: [UInt8]) -> [UInt8] {
        let lower = digits.map(asciiLowercased)
        let hash = Keccak256.hash(lower)
        return lower.enumerated().map { index, byte in
            let nibble = index % 2 == 0 ? hash[index / 2] >> 4 : hash[index / 2] & 0x0f
            return byte >= UInt8(ascii: "a") && nibble >= 8 ? byte - 0x20 : byte
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }

    private static func validateEVM(_ address: String) throws(AddressValidationError) -> AddressKind {
        let digits = Array(try hexDigits(address, count: 40, format: .evm).utf8)
        let hasLower = digits.contains { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
        let hasUpper = digits.contains { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }
        if hasLower && hasUpper && eip55Digits(digits) != digits {
            throw AddressValidationError(reason: .badChecksum, format: .evm)
        }
        return .evm
    }

    private static func validateHex32(_ address: String) throws(AddressValidationError) -> AddressKind {
        _ = try hexDigits(address, count: 64, format: .hex32)
        return .hex32
    }

    private static func hexDigits(_ address: String, count: Int, format: AddressFormat)
        throws(AddressValidationError) -> String
    {
        guard address.hasPrefix("0x") else { throw AddressValidationError(reason: .badPrefix, format: format) }
        let digits = address.dropFirst(2)
        guard digits.utf8.allSatisfy({ isHexDigit($0) }) else {
            throw AddressValidationError(reason: .badCharacter, format: format)
        }
        guard digits.utf8.count == count else {
            throw AddressValidationError(reason: .badLength, format: format)
        }
        return String(digits)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    private static func validateSolana(_ address: String) throws(AddressValidationError) -> AddressKind {
        guard (32...44).contains(address.utf8.count) else {
            throw AddressValidationError(reason: .badLength, format: .solana)
        }
        guard let bytes = Base58.decode(address) else {
            throw AddressValidationError(reason: .badCharacter, format: .solana)
        }
        guard bytes.count == 32 else { throw AddressValidationError(reason: .badPayloadLength, format: .solana) }
        return .solana
    }

    private static func validateBitcoin(_ address: String) throws(AddressValidationError) -> AddressKind {
        let lowered = address.lowercased()
        if lowered.hasPrefix("bc1") {
            guard let decoded = Bech32.decode(address) else {
                throw AddressValidationError(reason: .badChecksum, format: .bitcoin)
            }
            guard decoded.humanReadablePart == "bc" else {
                throw AddressValidationError(reason: .badPrefix, format: .bitcoin)
            }
            guard let segwit = Bech32.segwitAddress(from: decoded) else {
                throw AddressValidationError(reason: .badPayloadLength, format: .bitcoin)
            }
            guard decoded.variant == Bech32.requiredVariant(version: segwit.version) else {
                throw AddressValidationError(reason: .badChecksum, format: .bitcoin)
            }
            return .bitcoinSegwit(version: segwit.version)
        }
        guard address.hasPrefix("1") || address.hasPrefix("3") else {
            throw AddressValidationError(reason: .badPrefix, format: .bitcoin)
        }
        guard let bytes = Base58.decode(address) else {
            throw AddressValidationError(reason: .badCharacter, format: .bitcoin)
        }
        guard bytes.count == 25 else { throw AddressValidationError(reason: .badPayloadLength, format: .bitcoin) }
        let payload = bytes.prefix(21)
        let checksum = PortableSHA256.hash(PortableSHA256.hash(payload)).prefix(4)
        guard Array(checksum) == Array(bytes.suffix(4)) else {
            throw AddressValidationError(reason: .badChecksum, format: .bitcoin)
        }
        switch bytes[0] {
        case 0x00: return .bitcoinP2PKH
        case 0x05: return .bitcoinP2SH
        default: throw AddressValidationError(reason: .badVersion, format: .bitcoin)
        }
    }

    private static func validateStellar(_ address: String) throws(AddressValidationError) -> AddressKind {
        guard address.hasPrefix("G") else { throw AddressValidationError(reason: .badPrefix, format: .stellar) }
        guard address.utf8.count == 56 else { throw AddressValidationError(reason: .badLength, format: .stellar) }
        guard StrKey.decodeAccountID(address) != nil else {
            throw AddressValidationError(reason: .badChecksum, format: .stellar)
        }
        return .stellar
    }

    /// Ripple's Base58 alphabet, in the order of Bitcoin's: the same digit values.
    private static let rippleAlphabet = Array("rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz".utf8)
    private static let bitcoinAlphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    private static func validateXRPL(_ address: String) throws(AddressValidationError) -> AddressKind {
        guard address.hasPrefix("r") else { throw AddressValidationError(reason: .badPrefix, format: .xrpl) }
        guard (25...35).contains(address.utf8.count) else {
            throw AddressValidationError(reason: .badLength, format: .xrpl)
        }
        var translated: [UInt8] = []
        for character in address.utf8 {
            guard let index = rippleAlphabet.firstIndex(of: character) else {
                throw AddressValidationError(reason: .badCharacter, format: .xrpl)
            }
            translated.append(bitcoinAlphabet[index])
        }
        guard let bytes = Base58.decode(String(decoding: translated, as: UTF8.self)) else {
            throw AddressValidationError(reason: .badCharacter, format: .xrpl)
        }
        guard bytes.count == 25 else { throw AddressValidationError(reason: .badPayloadLength, format: .xrpl) }
        guard bytes[0] == 0 else { throw AddressValidationError(reason: .badVersion, format: .xrpl) }
        let checksum = PortableSHA256.hash(PortableSHA256.hash(Array(bytes[0..<21])))
        guard Array(checksum.prefix(4)) == Array(bytes[21..<25]) else {
            throw AddressValidationError(reason: .badChecksum, format: .xrpl)
        }
        return .xrpl
    }
}

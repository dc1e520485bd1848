import Foundation

/// An exact decimal number, parsed strictly from wire strings and printed canonically.
///
/// It wraps Foundation's `Decimal`; no binary floating point is ever involved. Wire strings are
/// plain digits with at most one `.`; an exponent, whitespace, a leading `+`, or a `-` (unless the
/// caller allows signs) is refused.
public struct DecimalAmount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The longest wire string accepted, in characters.
    public static let maximumLength = 40
    /// The most fraction digits accepted when parsing.
    public static let maximumFractionDigits = 18
    /// The most significant digits accepted when parsing (`Decimal` holds 38).
    public static let maximumSignificantDigits = 34

    /// The underlying exact value.
    public let value: Decimal

    /// Zero.
    public static let zero = DecimalAmount(exactly: 0)

    /// Wraps an exact `Decimal`.
    public init(_ value: Decimal) {
        self.value = value
    }

    /// Creates an amount from an integer.
    public init(exactly integer: Int) {
        self.value = Decimal(integer)
    }

    /// Parses a wire string.
    ///
    /// - Parameters:
    ///   - string: digits with at most one `.` and digits on both sides of it, for example `"25.00"`.
    ///   - allowsNegative: whether a leading `-` is accepted.
    ///   - maximumFractionDigits: the most digits accepted after the `.`.
    ///   - parameter: the request parameter named in the error.
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/invalidAmount``.
    public init(
        parsing string: String, allowsNegative: Bool = false,
        maximumFractionDigits: Int = DecimalAmount.maximumFractionDigits, parameter: String? = nil
    ) throws {
        func failure(_ reason: String) -> OnrampError {
            OnrampError(
                code: .invalidAmount, userMessage: "The amount is not valid.",
                developerMessage: "Invalid decimal amount: \(reason).", parameter: parameter)
        }
        guard !string.isEmpty else { throw failure("empty string") }
        guard string.utf8.count <= Self.maximumLength else {
            throw failure("longer than \(Self.maximumLength) characters")
        }
        var bytes = Array(string.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            guard allowsNegative else { throw failure("a sign is not allowed") }
            negative = true
            bytes = bytes.dropFirst()
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw failure("more than one decimal point") }
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let integerPart = Array(parts[0])
        let fractionPart = parts.count == 2 ? Array(parts[1]) : []
        guard !integerPart.isEmpty, integerPart.allSatisfy(isDigit) else {
            throw failure("expected digits before the decimal point")
        }
        if parts.count == 2 {
            guard !fractionPart.isEmpty, fractionPart.allSatisfy(isDigit) else {
                throw failure("expected digits after the decimal point")
            }
        }
        guard fractionPart.count <= maximumFractionDigits else {
            throw failure("more than \(maximumFractionDigits) fraction digits")
        }
        let significant = (integerPart + fractionPart).drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= Self.maximumSignificantDigits else {
            throw failure("more than \(Self.maximumSignificantDigits) significant digits")
        }
        let text =
            String(decoding: integerPart, as: UTF8.self)
            + (fractionPart.isEmpty ? "" : "." + String(decoding: fractionPart, as: UTF8.self))
        guard var parsed = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw failure("not a number")
        }
        if negative { parsed.negate() }
        self.value = parsed
    }

    /// The shortest exact string: no exponent, no trailing fraction zeros, `-` for negatives.
    public var description: String {
        let raw = value.description
        guard raw.contains(".") else { return raw }
        var trimmed = Substring(raw)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        if trimmed.last == "." { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// The number of fraction digits in ``description``.
    public var fractionDigits: Int {
        let text = description
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: dot, to: text.endIndex) - 1
    }

    /// Rounds to `places` fraction digits (0 or more) with an explicit mode.
    public func rounded(toPlaces places: Int, mode: DecimalRounding) -> DecimalAmount {
        var magnitude = value.magnitude
        var result = Decimal()
        let foundationMode: NSDecimalNumber.RoundingMode
        switch mode {
        case .bankers: foundationMode = .bankers
        case .down: foundationMode = .down
        case .up: foundationMode = .up
        }
        NSDecimalRound(&result, &magnitude, max(places, 0), foundationMode)
        if value < 0 && result != 0 { result.negate() }
        return DecimalAmount(result)
    }

    /// The value as a string with exactly `places` fraction digits, rounded with `mode` first.
    public func string(places: Int, mode: DecimalRounding = .bankers) -> String {
        let text = rounded(toPlaces: places, mode: mode).description
        guard places > 0 else { return text }
        let present = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 }
        switch present {
        case .some(let digits): return text + String(repeating: "0", count: places - digits)
        case .none: return text + "." + String(repeating: "0", count: places)
        }
    }

    /// Whether the value is below zero.
    public var isNegative: Bool { value < 0 }

    /// Whether the value is zero.
    public var isZero: Bool { value == 0 }

    /// Whether the value is above zero.
    public var isPositive: Bool { value > 0 }

    /// Hashes the canonical form, so equal values (`2.1` and `2.10`) hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    /// Whether two amounts have the same value (`2.1 == 2.10`).
    public static func == (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool {
        lhs.value == rhs.value
    }

    /// Orders amounts by value.
    public static func < (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool {
        lhs.value < rhs.value
    }

    /// The exact sum.
    public static func + (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        DecimalAmount(lhs.value + rhs.value)
    }

    /// The exact difference.
    public static func - (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        DecimalAmount(lhs.value - rhs.value)
    }

    /// The product (exact while it fits in 38 significant digits).
    public static func * (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        DecimalAmount(lhs.value * rhs.value)
    }

    /// The quotient to 38 significant digits; round it with ``rounded(toPlaces:mode:)``.
    ///
    /// - Precondition: `rhs` is not zero.
    public static func / (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        precondition(!rhs.isZero, "division of a DecimalAmount by zero")
        return DecimalAmount(lhs.value / rhs.value)
    }
}

extension DecimalAmount: Codable {
    /// Decodes from a JSON string such as `"25.00"`, strictly parsed (negative values allowed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text, allowsNegative: true)
        } catch let error as OnrampError {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: error.developerMessage)
        }
    }

    /// Encodes as a JSON string in ``description`` form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

import Foundation

/// An exact decimal number, parsed strictly from wire strings and printed canonically.
///
/// The value is `significand × 10^exponent` with a 128-bit integer significand of at most 38 digits,
/// kept without trailing zeros, so equal values have one representation; no binary floating point is
/// ever involved. Sums, differences and products are exact while they fit in 38 significant digits
/// (beyond that they are rounded to 38 digits through Foundation's `Decimal`, as `Decimal` itself
/// would); a quotient is always asked for with its places and rounding
/// (``divided(by:toPlaces:mode:)``). Wire strings are plain digits with at most one `.`; an exponent,
/// whitespace, a leading `+`, or a `-` (unless the caller allows signs) is refused.
public struct DecimalAmount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The longest wire string accepted, in characters.
    public static let maximumLength = 40
    /// The most fraction digits accepted when parsing.
    public static let maximumFractionDigits = 18
    /// The most significant digits accepted when parsing.
    public static let maximumSignificantDigits = 34

    /// The integer whose digits the value has; no trailing zeros, and zero only for zero.
    private let significand: Int128
    /// The power of ten the significand is scaled by; zero for zero.
    private let exponent: Int

    /// Zero.
    public static let zero = DecimalAmount(exactly: 0)

    /// The most digits a significand holds: every 38-digit integer fits in `Int128`.
    private static let maximumDigits = 38

    private init(normalizing significand: Int128, exponent: Int) {
        guard significand != 0 else {
            self.significand = 0
            self.exponent = 0
            return
        }
        var significand = significand
        var exponent = exponent
        while significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        self.significand = significand
        self.exponent = exponent
    }

    /// `significand × 10^-scale`, for example `DecimalAmount(units: 2599, scale: 2)` is `25.99`.
    public init(units significand: Int, scale: Int = 0) {
        self.init(normalizing: Int128(significand), exponent: -scale)
    }

    /// Creates an amount from an integer.
    public init(exactly integer: Int) {
        self.init(units: integer)
    }

    /// The value as Foundation's `Decimal` (exact: 38 digits fit its mantissa).
    public var value: Decimal {
        var decimal = Decimal(string: description, locale: Locale(identifier: "en_US_POSIX")) ?? 0
        if decimal.isNaN { decimal = 0 }
        return decimal
    }

    /// Takes a Foundation `Decimal`'s value, rounded half to even to 38 significant digits when it has
    /// more.
    public init(_ value: Decimal) {
        self = DecimalAmount(decimalText: value.description) ?? .zero
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
        let utf8 = string.utf8
        guard !utf8.isEmpty else { throw failure("empty string") }
        guard utf8.count <= Self.maximumLength else {
            throw failure("longer than \(Self.maximumLength) characters")
        }
        var negative = false
        var integerDigits = 0
        var fractionDigits = 0
        var sawPoint = false
        var significantDigits = 0
        var significand: Int128 = 0
        for (offset, byte) in utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                guard allowsNegative else { throw failure("a sign is not allowed") }
                negative = true
            case UInt8(ascii: "."):
                guard !sawPoint else { throw failure("more than one decimal point") }
                guard integerDigits > 0 else { throw failure("expected digits before the decimal point") }
                sawPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
                if significantDigits > 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
                guard significantDigits <= Self.maximumSignificantDigits else {
                    throw failure("more than \(Self.maximumSignificantDigits) significant digits")
                }
                significand = significand * 10 + Int128(byte - UInt8(ascii: "0"))
            default:
                throw failure(
                    sawPoint ? "expected digits after the decimal point" : "expected digits before the decimal point")
            }
        }
        guard integerDigits > 0 else { throw failure("expected digits before the decimal point") }
        guard !sawPoint || fractionDigits > 0 else { throw failure("expected digits after the decimal point") }
        guard fractionDigits <= maximumFractionDigits else {
            throw failure("more than \(maximumFractionDigits) fraction digits")
        }
        self.init(normalizing: negative ? -significand : significand, exponent: -fractionDigits)
    }

    /// Reads the plain text Foundation's `Decimal` prints (digits, one optional `.`, an optional
    /// leading `-`), rounding half to even to 38 significant digits.
    private init?(decimalText text: String) {
        var digits: [UInt8] = []
        var negative = false
        var fractionDigits = 0
        var sawPoint = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-") where digits.isEmpty && !negative: negative = true
            case UInt8(ascii: ".") where !sawPoint: sawPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if sawPoint { fractionDigits += 1 }
                if !digits.isEmpty || byte != UInt8(ascii: "0") { digits.append(byte - UInt8(ascii: "0")) }
            default: return nil
            }
        }
        let kept = min(digits.count, Self.maximumDigits)
        var significand = digits.prefix(kept).reduce(Int128(0)) { $0 * 10 + Int128($1) }
        let dropped = digits.dropFirst(kept)
        if let first = dropped.first {
            let exactlyHalf = first == 5 && dropped.dropFirst().allSatisfy { $0 == 0 }
            if first > 5 || (first == 5 && (!exactlyHalf || significand % 2 == 1)) { significand += 1 }
        }
        self.init(normalizing: negative ? -significand : significand, exponent: dropped.count - fractionDigits)
    }

    /// The shortest exact string: no exponent, no trailing fraction zeros, `-` for negatives.
    public var description: String {
        var text = significand < 0 ? "-" : ""
        var digits = Self.digits(of: significand.magnitude)
        if exponent >= 0 {
            if significand != 0 { digits += [UInt8](repeating: UInt8(ascii: "0"), count: exponent) }
            text += String(decoding: digits, as: UTF8.self)
        } else {
            let fraction = -exponent
            if digits.count <= fraction {
                digits = [UInt8](repeating: UInt8(ascii: "0"), count: fraction - digits.count + 1) + digits
            }
            digits.insert(UInt8(ascii: "."), at: digits.count - fraction)
            text += String(decoding: digits, as: UTF8.self)
        }
        return text
    }

    /// The number of fraction digits in ``description``.
    public var fractionDigits: Int { max(0, -exponent) }

    /// Rounds to `places` fraction digits (0 or more) with an explicit mode.
    public func rounded(toPlaces places: Int, mode: DecimalRounding) -> DecimalAmount {
        let places = max(places, 0)
        guard -exponent > places else { return self }
        let dropped = -exponent - places
        let magnitude = significand.magnitude
        let (quotient, remainder, divisor) =
            dropped <= Self.maximumDigits
            ? (magnitude / Self.powersOfTen[dropped], magnitude % Self.powersOfTen[dropped], Self.powersOfTen[dropped])
            : (0, magnitude, nil)
        let kept =
            quotient + (Self.roundsAway(quotient: quotient, remainder: remainder, divisor: divisor, mode: mode) ? 1 : 0)
        return DecimalAmount(normalizing: significand < 0 ? -Int128(kept) : Int128(kept), exponent: -places)
    }

    /// The quotient `self / divisor` rounded to `places` fraction digits with `mode`, exactly: the
    /// rounding sees the whole remainder, however many digits the quotient would need.
    ///
    /// - Precondition: `divisor` is not zero.
    public func divided(by divisor: DecimalAmount, toPlaces places: Int, mode: DecimalRounding) -> DecimalAmount {
        precondition(!divisor.isZero, "division of a DecimalAmount by zero")
        guard !isZero else { return .zero }
        let places = max(places, 0)
        // |self| / |divisor| × 10^places = n × 10^shift / d.
        let n = significand.magnitude
        let d = divisor.significand.magnitude
        let shift = exponent - divisor.exponent + places
        var quotient: UInt128
        var remainder: UInt128
        var scaledDivisor: UInt128? = d
        if shift >= 0 {
            (quotient, remainder) = (n / d, n % d)
            for _ in 0..<shift {
                // remainder < d, so remainder × 10 / d is one digit.
                let wide = remainder.multipliedFullWidth(by: 10)
                let (digit, rest) = d.dividingFullWidth(wide)
                let (times10, overflow) = quotient.multipliedReportingOverflow(by: 10)
                guard !overflow, times10 < Self.powersOfTen[Self.maximumDigits] - digit else {
                    return roundedThroughFoundation { $0 / divisor.value }.rounded(toPlaces: places, mode: mode)
                }
                quotient = times10 + digit
                remainder = rest
            }
        } else if -shift <= Self.maximumDigits,
            case let (product, overflow) = d.multipliedReportingOverflow(
                by: Self.powersOfTen[-shift]), !overflow
        {
            scaledDivisor = product
            (quotient, remainder) = (n / product, n % product)
        } else {
            // The divisor has more digits than any significand: the quotient is below one unit.
            scaledDivisor = nil
            (quotient, remainder) = (0, n)
        }
        guard quotient < Self.powersOfTen[Self.maximumDigits] - 1 else {
            return roundedThroughFoundation { $0 / divisor.value }.rounded(toPlaces: places, mode: mode)
        }
        let kept =
            quotient
            + (Self.roundsAway(quotient: quotient, remainder: remainder, divisor: scaledDivisor, mode: mode) ? 1 : 0)
        let negative = (significand < 0) != (divisor.significand < 0)
        return DecimalAmount(normalizing: negative ? -Int128(kept) : Int128(kept), exponent: -places)
    }

    /// The value as a string with exactly `places` fraction digits, rounded with `mode` first.
    public func string(places: Int, mode: DecimalRounding = .bankers) -> String {
        let text = rounded(toPlaces: places, mode: mode).description
        guard places > 0 else { return text }
        let present = text.utf8.firstIndex(of: UInt8(ascii: ".")).map {
            text.utf8.distance(from: $0, to: text.utf8.endIndex) - 1
        }
        switch present {
        case .some(let digits): return text + String(repeating: "0", count: places - digits)
        case .none: return text + "." + String(repeating: "0", count: places)
        }
    }

    /// Whether the value is below zero.
    public var isNegative: Bool { significand < 0 }

    /// Whether the value is zero.
    public var isZero: Bool { significand == 0 }

    /// Whether the value is above zero.
    public var isPositive: Bool { significand > 0 }

    /// Whether two amounts have the same value (`2.1 == 2.10`): one representation per value.
    public static func == (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool {
        lhs.significand == rhs.significand && lhs.exponent == rhs.exponent
    }

    /// Orders amounts by value.
    public static func < (lhs: DecimalAmount, rhs: DecimalAmount) -> Bool {
        guard lhs.isNegative == rhs.isNegative else { return lhs.isNegative }
        let ascending = compareMagnitudes(lhs, rhs)
        return lhs.isNegative ? ascending > 0 : ascending < 0
    }

    /// The exact sum (rounded to 38 significant digits when it has more).
    public static func + (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        guard !lhs.isZero else { return rhs }
        guard !rhs.isZero else { return lhs }
        let (coarse, fine) = lhs.exponent >= rhs.exponent ? (lhs, rhs) : (rhs, lhs)
        let shift = coarse.exponent - fine.exponent
        if shift <= maximumDigits,
            case let (aligned, overflow) = coarse.significand.multipliedReportingOverflow(
                by: Int128(powersOfTen[shift])),
            !overflow, case let (sum, sumOverflow) = aligned.addingReportingOverflow(fine.significand), !sumOverflow,
            sum.magnitude < powersOfTen[maximumDigits]
        {
            return DecimalAmount(normalizing: sum, exponent: fine.exponent)
        }
        return lhs.roundedThroughFoundation { $0 + rhs.value }
    }

    /// The exact difference (rounded to 38 significant digits when it has more).
    public static func - (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        lhs + DecimalAmount(normalizing: -rhs.significand, exponent: rhs.exponent)
    }

    /// The exact product (rounded to 38 significant digits when it has more).
    public static func * (lhs: DecimalAmount, rhs: DecimalAmount) -> DecimalAmount {
        let (product, overflow) = lhs.significand.multipliedReportingOverflow(by: rhs.significand)
        guard !overflow, product.magnitude < powersOfTen[maximumDigits] else {
            return lhs.roundedThroughFoundation { $0 * rhs.value }
        }
        return DecimalAmount(normalizing: product, exponent: lhs.exponent + rhs.exponent)
    }

    /// The result of an operation whose exact value needs more than 38 digits, computed by Foundation's
    /// `Decimal` (which keeps 38) and rounded half to even into a significand.
    private func roundedThroughFoundation(_ operation: (Decimal) -> Decimal) -> DecimalAmount {
        DecimalAmount(operation(value))
    }

    /// Whether rounding `quotient` (with `remainder` left of `divisor`, or of a divisor too large to
    /// hold when `nil`, which makes the remainder less than half) moves it one unit away from zero.
    private static func roundsAway(quotient: UInt128, remainder: UInt128, divisor: UInt128?, mode: DecimalRounding)
        -> Bool
    {
        guard remainder != 0 else { return false }
        switch mode {
        case .down: return false
        case .up: return true
        case .bankers:
            guard let divisor else { return false }
            // remainder < divisor < 10^38, so doubling it stays below UInt128.max.
            let twice = remainder * 2
            return twice > divisor || (twice == divisor && quotient % 2 == 1)
        }
    }

    /// -1, 0 or 1 as |lhs| is below, equal to or above |rhs|.
    private static func compareMagnitudes(_ lhs: DecimalAmount, _ rhs: DecimalAmount) -> Int {
        let (a, b) = (lhs.significand.magnitude, rhs.significand.magnitude)
        guard a != 0, b != 0 else { return a == b ? 0 : (a == 0 ? -1 : 1) }
        // The position of the leading digit decides unless it is the same.
        let (aDigits, bDigits) = (digitCount(a), digitCount(b))
        let (aLead, bLead) = (aDigits + lhs.exponent, bDigits + rhs.exponent)
        guard aLead == bLead else { return aLead < bLead ? -1 : 1 }
        // Same leading position: pad the shorter to the same digit count (at most 38 digits).
        let (aPadded, bPadded) =
            aDigits >= bDigits ? (a, b * powersOfTen[aDigits - bDigits]) : (a * powersOfTen[bDigits - aDigits], b)
        return aPadded == bPadded ? 0 : (aPadded < bPadded ? -1 : 1)
    }

    private static func digitCount(_ magnitude: UInt128) -> Int {
        var count = 1
        while count <= maximumDigits && magnitude >= powersOfTen[count] { count += 1 }
        return count
    }

    private static func digits(of magnitude: UInt128) -> [UInt8] {
        guard magnitude != 0 else { return [UInt8(ascii: "0")] }
        var digits: [UInt8] = []
        var rest = magnitude
        // Peel 19 digits at a time in 64-bit arithmetic: one 128-bit division per 19 digits.
        while rest != 0 {
            let (high, low) = rest.quotientAndRemainder(dividingBy: 10_000_000_000_000_000_000)
            var chunk = UInt64(low)
            for _ in 0..<19 {
                digits.append(UInt8(ascii: "0") + UInt8(chunk % 10))
                chunk /= 10
                if high == 0 && chunk == 0 { break }
            }
            rest = high
        }
        return digits.reversed()
    }

    /// 10^0 … 10^38.
    private static let powersOfTen: [UInt128] = (0...38).reduce(into: []) { powers, exponent in
        powers.append(exponent == 0 ? 1 : powers[exponent - 1] * 10)
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
